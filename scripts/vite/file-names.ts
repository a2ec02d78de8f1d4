// The build's file names. Every file under /assets/ carries a content hash: the server sends /assets/ as immutable
// and the service worker takes it from the HTTP cache (server/plugins/static.ts, src/sw.ts), so a new version must
// have new names. The start chunk names every lazy chunk and stylesheet, so they go by their hash alone ('c-', 's-';
// `npm run budget` still names each by its source, through dist/.vite/manifest.json).
// Chunks get rolldown's full 8-character hash: it hashes chunks through placeholders of that length, and 6 characters
// hold 64 chunks at most (the build fails with "you need a minimum hash size of 7" at the 65th); 8 hold 262,144.
// Stylesheets and other assets are hashed from their bytes directly, with no such limit: 6 characters (36 bits).
import type { Rolldown } from 'vite'

export const fileNames = {
  entryFileNames: 'assets/[name]-[hash].js',
  chunkFileNames: (chunk: Rolldown.PreRenderedChunk) => (chunk.name === 'start' ? 'assets/start-[hash].js' : 'assets/c-[hash].js'),
  assetFileNames: (asset: Rolldown.PreRenderedAsset) =>
    asset.names.some((n) => n.endsWith('.css')) ? 'assets/s-[hash:6][extname]' : 'assets/[name]-[hash:6][extname]',
}
