import { reactRouter } from '@react-router/dev/vite'
import { defineConfig } from 'vite'

// The custom Node server (server.js) loads `server/app.ts` through Vite in
// development and from the SSR bundle in production, so the server entry is
// the SSR build's input. See docs/decisions/002-node-server.md.
export default defineConfig(({ isSsrBuild }) => ({
	build: {
		target: 'es2022',
		rollupOptions: isSsrBuild
			? { input: './server/app.ts' }
			: {
					// Its own chunk, so the root route runs it before any module that
					// builds a Zod schema (see app/utils/zod-jitless.ts).
					output: { manualChunks: (id: string) => (id.includes('/app/utils/zod-jitless') ? 'zod-jitless' : undefined) },
				},
	},
	ssr: {
		// PGlite ships its WebAssembly and data files next to its JS; keep it
		// (and the native-ish database drivers) outside the bundle.
		external: ['@electric-sql/pglite', 'pg', 'nodemailer', 'ws'],
	},
	plugins: [reactRouter()],
}))
