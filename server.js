// The product's Node server: `npm start` (after a build) or `node server.js`.
// Serves the React Router build with compression and long-lived caching of
// hashed assets. The same HTTP server will carry the realtime relay's
// WebSocket endpoint (/realtime/v1) on the same port.
// `node server.js --dev` runs Vite in middleware mode instead of the build.
import { createServer } from 'node:http'
import compression from 'compression'
import express from 'express'

const DEV = process.argv.includes('--dev')
process.env.NODE_ENV ??= DEV ? 'development' : 'production'

async function main() {
	const server = express()
	server.disable('x-powered-by')
	server.use(compression())

	let createApp
	if (DEV) {
		const vite = await import('vite').then((v) => v.createServer({ server: { middlewareMode: true } }))
		server.use(vite.middlewares)
		;({ createApp } = await vite.ssrLoadModule('./server/app.ts'))
	} else {
		// Hashed file names: cache for a year and never revalidate.
		server.use('/assets', express.static('build/client/assets', { immutable: true, maxAge: '1y', index: false }))
		// The build manifest open tabs poll for a new version: always revalidated.
		server.use('/builds', express.static('build/client/builds', { cacheControl: false, index: false, setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache') }))
		server.use(express.static('build/client', { maxAge: '1h', index: false }))
		;({ createApp } = await import('./build/server/index.js'))
	}

	const { app, services } = await createApp((line) => console.log(line))
	server.use(app)

	const { PORT: port, HOST: host } = services.env
	const http = createServer(server)
	http.listen(port, host, () => console.log(`Dareboost is listening on http://localhost:${port}`))

	const shutdown = () => {
		http.close(() => services.db.close().finally(() => process.exit(0)))
		setTimeout(() => process.exit(0), 5000).unref()
	}
	process.once('SIGINT', shutdown)
	process.once('SIGTERM', shutdown)
}

main().catch((error) => {
	if (error?.name === 'EnvError') {
		console.error(error.message)
		console.error('See the configuration table in README.md.')
	} else if (error?.name === 'LegalContentError') {
		console.error(error.message)
	} else {
		console.error(error)
	}
	process.exit(1)
})
