// Builds the console into dist/web, served by the API server at /console.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  plugins: [react()],
  build: { outDir: '../dist/web', emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 800 },
});
