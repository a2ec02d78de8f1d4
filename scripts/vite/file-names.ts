// The build's file names. Every file under /assets/ carries a content hash: the server sends /assets/ as immutable
// and the service worker takes it from the HTTP cache (server/plugins/static.ts, src/sw.ts), so a new version must
// have new names. The start chunk names every lazy chunk and stylesheet, so they go by their hash alone ('c-', 's-';
// `npm run budget` still names each by its source, through dist/.vite/manifest.json).
// Chunks get 7 characters of hash: rolldown hashes chunks through placeholders, and n characters hold 64^(n-5) chunks
// (6 fail at the 65th with "you need a minimum hash size of 7"; 7 at the 4,097th, measured), so 7 hold the app's
// ~60 chunks 68 times over. Each character counts: the start chunk names 17 lazy chunks, and 8 characters cost the
// first load 49 B more (brotli, 18,449 B against 18,498 B).
// Stylesheets and other assets are hashed from their bytes directly, with no such limit: 6 characters (36 bits).
import type { Rolldown } from 'vite'

export const fileNames = {
  entryFileNames: 'assets/[name]-[hash].js',
  chunkFileNames: (chunk: Rolldown.PreRenderedChunk) => (chunk.name === 'start' ? 'assets/start-[hash:7].js' : 'assets/c-[hash:7].js'),
  assetFileNames: (asset: Rolldown.PreRenderedAsset) =>
    asset.names.some((n) => n.endsWith('.css')) ? 'assets/s-[hash:6][extname]' : 'assets/[name]-[hash:6][extname]',
}
