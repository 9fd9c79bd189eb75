import { defineConfig } from 'vite';

/**
 * The dashboard is served by Baton at /dashboard (src/modules/dashboard/). Preact through Vite's own
 * JSX transform (automatic runtime, no plugin); hashed asset names, so the server may cache them for a year.
 */
export default defineConfig({
  base: '/dashboard/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    rolldownOptions: {
      output: {
        entryFileNames: 'assets/[name]-[hash].js',
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: 'assets/[name]-[hash][extname]',
      },
    },
  },
});
