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

	const { app, guard, requestLog, services, realtime, lifecycle } = await module.createApp((line) => console.log(line))
	const server = express()
	server.disable('x-powered-by')
	server.use(requestLog)
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

	/**
	 * Graceful drain (docs/decisions/048-graceful-drain.md): /readyz says 503
	 * at once and every answer closes its connection; after SHUTDOWN_DELAY_MS
	 * (a load balancer's time to see it; default none) the listener takes no
	 * new connection, the relay's sockets are closed with 1001 (realtime-js
	 * reconnects elsewhere) and the background work stops; in-flight requests
	 * finish, for SHUTDOWN_TIMEOUT_MS at most (then they are cut off); then the
	 * pool closes and the process exits 0.
	 */
	let stopping = false
	const shutdown = async (reason) => {
		if (stopping) return
		stopping = true
		const { SHUTDOWN_DELAY_MS: delay, SHUTDOWN_TIMEOUT_MS: timeout } = services.env
		console.log(`${reason}: draining${delay ? ` in ${delay} ms` : ''} (in-flight requests get ${timeout} ms)`)
		lifecycle.drain()
		if (delay) await new Promise((resolve) => setTimeout(resolve, delay))
		const drained = new Promise((resolve) => http.close(resolve))
		http.closeIdleConnections()
		const cutOff = setTimeout(() => {
			console.log(`shutdown: requests still running after ${timeout} ms are cut off`)
			http.closeAllConnections()
		}, timeout)
		cutOff.unref()
		try {
			await Promise.all([drained, services.background.stop()])
			await services.db.close()
			process.exit(0)
		} catch (error) {
			console.error('shutdown:', error)
			process.exit(1)
		}
	}
	process.once('SIGINT', () => shutdown('SIGINT'))
	process.once('SIGTERM', () => shutdown('SIGTERM'))
	// Started by npm (`npm start`): should npm itself be killed outright, this
	// process would keep the port with no one to stop it; it stops when its
	// parent is gone instead.
	if (process.env.npm_lifecycle_event) {
		const parent = process.ppid
		setInterval(() => process.ppid !== parent && shutdown('npm is gone'), 1000).unref()
	}
}

main().catch((error) => {
	if (error?.name === 'EnvError') {
		console.error(error.message)
		console.error('See the configuration table in README.md.')
	} else if (MIGRATE) {
		console.error(`migrate failed: ${error instanceof Error ? error.message : String(error)}`)
	} else if (error?.name === 'LegalContentError' || error?.name === 'DatabaseUnreachableError') {
		console.error(error.message)
	} else {
		console.error(error)
	}
	process.exit(1)
})
