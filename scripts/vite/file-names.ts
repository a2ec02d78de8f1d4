// The build's file names. Every file under /assets/ carries a content hash: the server sends /assets/ as immutable
// and the service worker takes it from the HTTP cache (server/plugins/static.ts, src/sw.ts), so a new version must
// have new names. The start chunk names every lazy chunk and stylesheet, so they go by their hash alone ('c-', 's-';
// `npm run budget` still names each by its source, through dist/.vite/manifest.json).
// Hashes in hex, 8 characters (32 bits) for chunks and stylesheets alike. The start chunk carries some 30 of these
// names, and random names compress differently (`npm run budget:names` draws them): in base64 (7 for chunks, 6 for
// stylesheets) the same start chunk measured 15,789-15,910 B (brotli, 40 draws, mean 15,835), in hex 8/8
// 15,748-15,844 (mean 15,796), so the first load moved by up to 90 B with edits to screens it does not contain.
// Capacity: rolldown hashes chunks through placeholders, and n characters hold 16^(n-5) chunks in hex: 8 hold
// 4,096; the app has ~70.
import type { Rolldown } from 'vite'

export const fileNames = {
  hashCharacters: 'hex' as const,
  entryFileNames: 'assets/[name]-[hash].js',
  chunkFileNames: (chunk: Rolldown.PreRenderedChunk) => (chunk.name === 'start' ? 'assets/start-[hash:8].js' : 'assets/c-[hash:8].js'),
  assetFileNames: (asset: Rolldown.PreRenderedAsset) =>
    asset.names.some((n) => n.endsWith('.css')) ? 'assets/s-[hash:8][extname]' : 'assets/[name]-[hash:8][extname]',
}
