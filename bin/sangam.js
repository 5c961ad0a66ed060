#!/usr/bin/env node
// The `sangam` command line; the code lives in src/cli.ts (compiled by `npm install`).
import { main } from '../dist/src/cli.js';
process.exitCode = await main(process.argv.slice(2));
