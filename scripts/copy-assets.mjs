// Copies the non-TypeScript files the server reads at run time (SQL migrations) next to the compiled code.
import { cpSync } from 'node:fs';
cpSync('src/db/migrations', 'dist/src/db/migrations', { recursive: true });
