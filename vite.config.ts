import { randomBytes } from 'node:crypto'
import { reactRouter } from '@react-router/dev/vite'
import { defineConfig, type Plugin } from 'vite'

/**
 * This build's identity (app/modules/builds/manifest.ts): baked into the
 * client bundle and written to `builds/latest.json`, so an open tab can tell
 * that a newer build is deployed. BUILD_ID (for example a commit hash) names
 * it; otherwise it is unique per build.
 */
const build = {
	id: process.env.BUILD_ID || `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`,
	time: new Date().toISOString(),
}

function buildManifest(): Plugin {
	return {
		name: 'dareboost:build-manifest',
		apply: 'build',
		generateBundle() {
			this.emitFile({ type: 'asset', fileName: 'builds/latest.json', source: `${JSON.stringify(build)}\n` })
		},
	}
}

// The custom Node server (server.js) loads `server/app.ts` through Vite in
// development and from the SSR bundle in production, so the server entry is
// the SSR build's input. See docs/decisions/002-node-server.md.
export default defineConfig(({ command, isSsrBuild }) => ({
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
	// Only the client build carries the id; the dev server and the SSR bundle say `dev`.
	define: command === 'build' && !isSsrBuild ? { __BUILD_ID__: JSON.stringify(build.id) } : {},
	ssr: {
		// PGlite ships its WebAssembly and data files next to its JS; keep it
		// (and the native-ish database drivers) outside the bundle.
		external: ['@electric-sql/pglite', 'pg', 'nodemailer', 'ws'],
	},
	plugins: [reactRouter(), ...(command === 'build' && !isSsrBuild ? [buildManifest()] : [])],
}))
