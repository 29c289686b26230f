import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';

// The workspace's build: web/dist, served by src/workspace/ (the shell at `/`, hashed files under /assets/).
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [preact({ prefreshEnabled: false, devToolsEnabled: false })],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    // The polyfill would be an inline script, which the Content-Security-Policy forbids; browsers Quire
    // supports preload modules natively.
    modulePreload: { polyfill: false },
    target: 'es2022',
    cssCodeSplit: true,
    reportCompressedSize: false,
    // Fonts (KaTeX's) are files of their own: the Content-Security-Policy's font-src is 'self', not data:.
    assetsInlineLimit: (file: string) => (/\.(woff2?|ttf|otf)$/.test(file) ? false : undefined),
  },
});
