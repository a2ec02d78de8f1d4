import { defineConfig } from 'vite'
import preact from '@preact/preset-vite'

export default defineConfig({
  plugins: [preact()],
  build: { target: 'es2020', cssCodeSplit: true, modulePreload: { polyfill: false } },
  server: { proxy: { '/api': 'http://localhost:3000' } },
})
