import 'react-router'
import { createRequestHandler } from '@react-router/express'
import express from 'express'
import { RouterContextProvider } from 'react-router'
import { boot } from '#app/boot.server'
import { servicesContext, type AppServices } from '#app/context.server'

/**
 * The app as an Express router: built into build/server/index.js and loaded
 * by server.js (through Vite in development). `createApp` boots the services
 * once; every request gets a fresh router context carrying them.
 */
export async function createApp(log?: (line: string) => void): Promise<{ app: express.Express; services: AppServices }> {
	const services = await boot(log)
	const app = express()
	app.disable('x-powered-by')
	// Liveness and readiness for load balancers and the Docker healthcheck.
	app.get('/healthz', async (_req, res) => {
		try {
			await services.db.query('select 1')
			res.set('cache-control', 'no-store').json({ ok: true })
		} catch {
			res.status(503).set('cache-control', 'no-store').json({ ok: false })
		}
	})
	app.all(
		'/{*splat}',
		createRequestHandler({
			build: () => import('virtual:react-router/server-build'),
			getLoadContext() {
				const context = new RouterContextProvider()
				context.set(servicesContext, services)
				return context
			},
		}),
	)
	return { app, services }
}
