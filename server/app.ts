import 'react-router'
import { writeReadableStreamToWritable } from '@react-router/node'
import express from 'express'
import { createRequestHandler, matchRoutes, RouterContextProvider, type RouteObject, type ServerBuild } from 'react-router'
import { keptAnswers } from '#app/utils/kept-answers'
import { boot } from '#app/boot.server'
import { getEnv } from '#app/env.server'
import { createLogger, hashUser, requestIdOf, requestScope, routeConsole } from '#app/log.server'
import { viewerContext } from '#app/context.server'
import { pendingMigrationsCheck } from '#app/db/migrate.server'
import { analyticsRelay } from '#app/modules/analytics/relay.server'
import { startRealtime, type Realtime } from '#app/modules/realtime/index.server'
import { createSharedRenders, sharedRenderContext, type Capture, type SharedPage } from '#app/modules/shared-pages/shared-render.server'
import { servicesContext, type AppServices } from '#app/context.server'
import { bodyLimitFor, limitedBody, refuseTooLarge } from '#app/security/body-limit.server'
import { createGuard } from '#app/security/guard.server'
import { requestSecurityContext } from '#app/security/request.server'
import { httpRequestDuration, mayReadMetrics, metrics } from '#app/metrics.server'
import { isLocalRequest } from '#app/security/hosts.server'

export { runMigrations } from '#app/db/migrate-command.server'

/**
 * The app as an Express router: built into build/server/index.js and loaded
 * by server.js (through Vite in development). `createApp` boots the services
 * once; every request gets a fresh router context carrying them. `guard`
 * goes first in server.js, before static files (app/security/guard.server.ts).
 */
export async function createApp(
	log?: (line: string) => void,
): Promise<{
	app: express.Express
	guard: express.RequestHandler
	requestLog: express.RequestHandler
	services: AppServices
	realtime: Realtime
	lifecycle: { drain(): void }
}> {
	// The logs first: everything from here on, console.* included, is a JSON line in production.
	// (A bad setting throws EnvError here, before any line is JSON: server.js prints it.)
	const { LOG_LEVEL, NODE_ENV } = getEnv()
	const logger = createLogger({ level: LOG_LEVEL, pretty: NODE_ENV === 'development' })
	routeConsole(logger)
	const booted = await boot(log)
	// The pages a visitor reads, rendered once per change (app/modules/shared-pages/shared-render.server.ts).
	const shared = createSharedRenders({ env: booted.env })
	// The marks the broadcaster reads reach the shared renders and the platform's
	// session cache (a revoked session is forgotten on every instance).
	const { auth } = booted.platform
	const realtime = await startRealtime(booted, (topics, readAt?: number) => {
		shared.observe(topics)
		auth.observe?.(topics, readAt)
	})
	// Stopped with the rest of the background work, before the database closes.
	const services: AppServices = {
		...booted,
		background: {
			stop: async () => {
				await realtime.stop()
				await booted.background.stop()
			},
		},
	}
	const app = express()
	app.disable('x-powered-by')
	// Draining (server.js, on SIGTERM): not ready any more, and every answer
	// closes its connection, so a client's next request goes to another instance.
	let draining = false
	app.use((_req, res, next) => {
		if (draining) res.setHeader('connection', 'close')
		next()
	})
	// Liveness for the Docker healthcheck: the process answers and reaches its database.
	app.get('/healthz', async (_req, res) => {
		res.locals.routeId = 'healthz'
		try {
			await services.db.query('select 1')
			res.set('cache-control', 'no-store').json({ ok: true })
		} catch {
			res.status(503).set('cache-control', 'no-store').json({ ok: false })
		}
	})
	// Readiness for load balancers: not draining, the database reachable, and
	// every migration of this build applied (an instance of a newer build waits
	// for its migrations; one of an older build still serves the schema it knows).
	const pendingMigrations = pendingMigrationsCheck()
	app.get('/readyz', async (_req, res) => {
		res.locals.routeId = 'readyz'
		res.set('cache-control', 'no-store')
		if (draining) return void res.status(503).json({ ok: false, reason: 'draining' })
		try {
			const pending = await pendingMigrations(services.db)
			if (pending.length > 0) return void res.status(503).json({ ok: false, reason: 'migrations pending', pending })
			res.json({ ok: true })
		} catch {
			res.status(503).json({ ok: false, reason: 'database unreachable' })
		}
	})
	// Prometheus: this machine, or the bearer of METRICS_TOKEN (a request relayed by a local proxy is not "this machine").
	app.get('/metrics', async (req, res) => {
		res.locals.routeId = 'metrics'
		const local = isLocalRequest(req.socket.remoteAddress, { get: (name) => req.get(name) ?? null })
		if (!mayReadMetrics(local, req.get('authorization'), services.env.METRICS_TOKEN)) return void res.status(404).end()
		res.set('content-type', metrics.contentType).set('cache-control', 'no-store').send(await metrics.metrics())
	})
	// Analytics from the browser, forwarded to PostHog (only with POSTHOG_KEY and consent).
	app.use(analyticsRelay(services.env))
	// The build itself in production: React Router derives its routes once. A
	// function in development, where Vite may change the build under it (React
	// Router then derives them again on every request, 10 % of a request's time).
	const build = () => import('virtual:react-router/server-build') as Promise<ServerBuild>
	const built = services.env.NODE_ENV === 'production' ? await build() : null
	const handle = createRequestHandler(built ?? build, services.env.NODE_ENV)
	// The route a request is for, as the access log names it (production: the build's route table).
	const routeIdOf = built ? routeMatcher(built) : () => null
	app.all('/{*splat}', async (req, res, next) => {
		const nonce = String(res.locals.nonce ?? '')
		// Before the shared page may answer: its access line names the route too.
		res.locals.routeId = routeIdOf(req.path)
		const key = shared.keyFor({ method: req.method, host: req.headers.host, url: req.originalUrl, cookie: req.headers.cookie })
		let capture: Capture | null = null
		try {
			if (key) {
				// The kept page, else the one being rendered (a few rounds at most, if renders yield none).
				let page = shared.page(key)
				for (let round = 0; !page && round < 3 && shared.rendering(key); round++) page = await shared.wait(key)
				if (page) return sendSharedPage(res, page, nonce)
				capture = shared.capture(key)
			}
			const context = new RouterContextProvider()
			res.locals.viewerOf = () => context.get(viewerContext)?.userId ?? null
			context.set(servicesContext, services)
			context.set(requestSecurityContext, { nonce, clientAddress: req.socket.remoteAddress })
			context.set(sharedRenderContext, capture?.hint ?? null)
			const request = toFetchRequest(req, res, services.env.MAX_BODY_BYTES)
			const response = await handle(request, context)
			const body = capture?.accepts(response) ? Buffer.from(await response.arrayBuffer()) : null
			if (body) capture!.keep(response, body, nonce)
			// Visitors waiting for this render go on now, not once this response is written (the finally below is for errors).
			capture?.done()
			await sendResponse(res, body ? new Response(body, response) : response)
		} catch (error) {
			next(error)
		} finally {
			capture?.done()
		}
	})
	const lifecycle = {
		/** From now on /readyz says 503 and every response closes its connection. */
		drain() {
			draining = true
		},
	}
	/**
	 * First on every request: its id (X-Request-Id when well-formed, else a
	 * new one; echoed), the scope every line logged for it carries, and one
	 * access line when it is answered: method, route, status, duration, and
	 * the signed-in user as a keyed hash.
	 */
	const secret = services.env.BETTER_AUTH_SECRET ?? services.env.COOKIE_SECRET ?? ''
	const requestLog: express.RequestHandler = (req, res, next) => {
		const requestId = requestIdOf(req.headers['x-request-id'])
		res.setHeader('x-request-id', requestId)
		const started = performance.now()
		res.once('finish', () => {
			const ms = performance.now() - started
			const route = (res.locals.routeId as string | null | undefined) ?? null
			const userId = (res.locals.viewerOf as (() => string | null) | undefined)?.() ?? null
			httpRequestDuration.observe({ method: req.method, route: route ?? 'other', status: String(res.statusCode) }, ms / 1000)
			logger.info(
				{
					requestId,
					method: req.method,
					route,
					status: res.statusCode,
					durationMs: Math.round(ms * 10) / 10,
					...(userId ? { user: hashUser(userId, secret) } : {}),
				},
				'request',
			)
		})
		requestScope.run({ requestId }, next)
	}
	return { app, guard: createGuard(services.env), requestLog, services, realtime, lifecycle }
}

/** The id of the route a path is for (`routes/session`), from the build's route table; null when none matches. */
function routeMatcher(build: ServerBuild): (path: string) => string | null {
	const byParent = new Map<string | undefined, RouteObject[]>()
	for (const route of Object.values(build.routes)) {
		if (!route) continue
		const list = byParent.get(route.parentId) ?? []
		list.push({ id: route.id, path: route.path, index: route.index, caseSensitive: route.caseSensitive } as RouteObject)
		byParent.set(route.parentId, list)
	}
	const attach = (routes: RouteObject[]): RouteObject[] =>
		routes.map((r) => (r.index ? r : ({ ...r, children: attach(byParent.get(r.id) ?? []) } as RouteObject)))
	const tree = attach(byParent.get(undefined) ?? [])
	const match = (path: string) => {
		// A client navigation's data request: /en/session/1.data, /_root.data.
		const page = path.endsWith('.data') ? path.slice(0, -'.data'.length).replace(/\/_root$/, '/') : path
		return matchRoutes(tree, page)?.at(-1)?.route.id ?? null
	}
	// React Router's matchRoutes flattens and ranks the whole table on every
	// call (a quarter of a small request's time): the answers for 1,000 paths
	// are kept, a long path's not (docs/decisions/055-hot-dare.md).
	const kept = keptAnswers(1000, (path: string) => path, match)
	return (path) => (path.length > 200 ? match(path) : kept(path))
}

/**
 * The Fetch Request React Router sees. Unlike @react-router/express's, its
 * body is the size-limited stream (413 as soon as the limit is passed), and
 * its URL is the path the client asked for on the Host the guard accepted.
 */
function toFetchRequest(req: express.Request, res: express.Response, defaultLimit: number): Request {
	const url = new URL(req.originalUrl, `${req.protocol}://${req.headers.host}`)
	const controller = new AbortController()
	res.on('close', () => {
		if (!res.writableFinished) controller.abort()
	})
	const headers = new Headers()
	for (const [key, value] of Object.entries(req.headers)) {
		if (Array.isArray(value)) for (const v of value) headers.append(key, v)
		else if (value !== undefined) headers.set(key, value)
	}
	const init: RequestInit & { duplex?: 'half' } = { method: req.method, headers, signal: controller.signal }
	if (req.method !== 'GET' && req.method !== 'HEAD') {
		const { body, discardRest } = limitedBody(req, bodyLimitFor(url.pathname, defaultLimit), () => refuseTooLarge(req, res))
		res.once('finish', discardRest)
		init.body = body
		init.duplex = 'half'
	}
	return new Request(url, init)
}

function sendSharedPage(res: express.Response, page: SharedPage, nonce: string) {
	res.status(page.status)
	for (const [name, value] of page.headers) res.append(name, value)
	res.setHeader('age', page.age)
	const body = page.body(nonce)
	res.setHeader('content-length', body.length)
	res.end(body)
}

async function sendResponse(res: express.Response, response: Response): Promise<void> {
	// A 413 (or the client leaving) already ended this exchange.
	if (res.headersSent || res.destroyed || res.writableEnded) {
		await response.body?.cancel().catch(() => {})
		return
	}
	res.statusMessage = response.statusText
	res.status(response.status)
	for (const [key, value] of response.headers.entries()) res.append(key, value)
	if (response.headers.get('content-type')?.match(/text\/event-stream/i)) res.flushHeaders()
	if (!response.body) {
		res.end()
		return
	}
	try {
		await writeReadableStreamToWritable(response.body, res)
	} catch (error) {
		if (res.destroyed || res.writableEnded) return
		throw error
	}
}
