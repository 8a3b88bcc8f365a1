// The product's Node server: `npm start` (after a build) or `node server.js`.
// Serves the React Router build with compression and long-lived caching of
// hashed assets. The same HTTP server will carry the realtime relay's
// WebSocket endpoint (/realtime/v1) on the same port.
// `node server.js --dev` runs Vite in middleware mode instead of the build.
// `node server.js migrate` applies the SQL migrations and exits (the
// container's way to migrate; it needs only what the image ships).
import { existsSync, readdirSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { createServer } from 'node:http'
import compression from 'compression'
import express from 'express'

const DEV = process.argv.includes('--dev')
const MIGRATE = process.argv[2] === 'migrate'
process.env.NODE_ENV ??= DEV ? 'development' : 'production'

/**
 * Slow clients cannot hold the server: the headers must arrive within 10 s
 * and the whole request within 30 s (no upload here is larger than a form),
 * idle keep-alive connections close after 65 s (longer than the 60 s idle
 * timeout of common load balancers, so they close first), and headers are
 * capped at 16 KiB. See docs/decisions/013-request-guard.md.
 */
export const SERVER_LIMITS = {
	headersTimeout: 10_000,
	requestTimeout: 30_000,
	keepAliveTimeout: 65_000,
	maxHeaderSize: 16 * 1024,
	// How often Node checks the two timeouts above (default 30 s).
	connectionsCheckingInterval: 1_000,
}

/** The server bundle: the build, or in development (no build) the source through Vite. */
async function loadServerModule() {
	if (!DEV && existsSync('build/server/index.js')) return { module: await import('./build/server/index.js') }
	if (!DEV && !MIGRATE) throw new Error('No build found: run `npm run build` first (or `npm run dev`).')
	const vite = await import('vite').then((v) => v.createServer({ server: { middlewareMode: true } }))
	return { module: await vite.ssrLoadModule('./server/app.ts'), vite }
}

async function main() {
	const { module, vite } = await loadServerModule()
	if (MIGRATE) {
		try {
			await module.runMigrations(process.env)
		} finally {
			await vite?.close()
		}
		return
	}

	const { app, guard, services, realtime } = await module.createApp((line) => console.log(line))
	const server = express()
	server.disable('x-powered-by')
	server.use(guard)
	server.use(compression())
	if (vite) {
		server.use(vite.middlewares)
	} else {
		// Hashed file names: cache for a year and never revalidate.
		server.use('/assets', express.static('build/client/assets', { immutable: true, maxAge: '1y', index: false }))
		// The build manifest open tabs poll for a new version: always revalidated.
		server.use('/builds', express.static('build/client/builds', { cacheControl: false, index: false, setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache') }))
		// The other public files (favicon, robots' neighbours, fonts...): only the
		// paths the build holds reach the file system; a page request does not
		// cost a stat.
		const publicFiles = new Set(
			readdirSync('build/client', { recursive: true, withFileTypes: true })
				.filter((entry) => entry.isFile())
				.map((entry) => `/${relative('build/client', join(entry.parentPath, entry.name)).split(sep).join('/')}`),
		)
		const publicStatic = express.static('build/client', { maxAge: '1h', index: false })
		server.use((req, res, next) => (publicFiles.has(req.path) ? publicStatic(req, res, next) : next()))
	}
	server.use(app)

	const { PORT: port, HOST: host } = services.env
	const http = createServer(
		{
			maxHeaderSize: SERVER_LIMITS.maxHeaderSize,
			requestTimeout: SERVER_LIMITS.requestTimeout,
			headersTimeout: SERVER_LIMITS.headersTimeout,
			keepAliveTimeout: SERVER_LIMITS.keepAliveTimeout,
			connectionsCheckingInterval: SERVER_LIMITS.connectionsCheckingInterval,
		},
		server,
	)
	// The realtime relay's WebSocket endpoint (/realtime/v1/websocket) on the same port.
	http.on('upgrade', (req, socket, head) => {
		if (!realtime.handleUpgrade(req, socket, head)) socket.destroy()
	})
	http.listen(port, host, () => console.log(`Dareboost is listening on ${services.env.APP_URL} (${host}:${port})`))

	const shutdown = () => {
		http.close(() =>
			services.background
				.stop()
				.then(() => services.db.close())
				.finally(() => process.exit(0)),
		)
		http.closeIdleConnections()
		setTimeout(() => process.exit(0), 5000).unref()
	}
	process.once('SIGINT', shutdown)
	process.once('SIGTERM', shutdown)
}

main().catch((error) => {
	if (error?.name === 'EnvError') {
		console.error(error.message)
		console.error('See the configuration table in README.md.')
	} else if (MIGRATE) {
		console.error(`migrate failed: ${error instanceof Error ? error.message : String(error)}`)
	} else if (error?.name === 'LegalContentError') {
		console.error(error.message)
	} else {
		console.error(error)
	}
	process.exit(1)
})
