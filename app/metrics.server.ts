import { timingSafeEqual } from 'node:crypto'
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'

/**
 * What an instance counts, for Prometheus at `/metrics` (docs/decisions/049-logs.md):
 * the requests by route, what users did, the realtime relay, the background
 * work's lag, the database pool, and the process (prom-client's defaults).
 * One registry per process; the parts of the app report into it.
 */
export const metrics = new Registry()
collectDefaultMetrics({ register: metrics })

export const httpRequestDuration = new Histogram({
	name: 'http_request_duration_seconds',
	help: 'Time to answer a request, by method, React Router route id and status.',
	labelNames: ['method', 'route', 'status'] as const,
	buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
	registers: [metrics],
})

/** A dare written, a boost, a vote, an accept, a rejection, a vote started: by what. */
export const dareActions = new Counter({
	name: 'dareboost_dare_actions_total',
	help: 'Dare actions that succeeded, by intent (create, boost, vote, accept, reject, start-voting).',
	labelNames: ['intent'] as const,
	registers: [metrics],
})

export const purchases = new Counter({
	name: 'dareboost_purchases_total',
	help: 'Coin purchases credited, by checkout (test, stripe).',
	labelNames: ['checkout'] as const,
	registers: [metrics],
})

/** Readings taken at scrape time from the parts that know them; each set once by its owner. */
const readings: {
	relay?: () => { sockets: number; channels: number }
	broadcasterPolledAt?: number
	sweptAt?: number
	pool?: () => { total: number; idle: number; waiting: number }
} = {}

export function reportRelay(stats: () => { sockets: number; channels: number }) {
	readings.relay = stats
}
export function reportPool(stats: () => { total: number; idle: number; waiting: number }) {
	readings.pool = stats
}
/** The broadcaster read the marks (its lag is the time since). */
export function broadcasterPolled() {
	readings.broadcasterPolledAt = Date.now()
}
/** The vote sweeper finished a round. */
export function sweeperSwept() {
	readings.sweptAt = Date.now()
}

const since = (at: number | undefined) => (at === undefined ? -1 : (Date.now() - at) / 1000)

new Gauge({
	name: 'dareboost_relay_sockets',
	help: "Open sockets of this instance's realtime relay.",
	registers: [metrics],
	collect() {
		this.set(readings.relay?.().sockets ?? 0)
	},
})
new Gauge({
	name: 'dareboost_relay_channels',
	help: "Channels joined on this instance's realtime relay.",
	registers: [metrics],
	collect() {
		this.set(readings.relay?.().channels ?? 0)
	},
})
new Gauge({
	name: 'dareboost_broadcaster_lag_seconds',
	help: 'Seconds since the broadcaster last read the marks (-1: not yet).',
	registers: [metrics],
	collect() {
		this.set(since(readings.broadcasterPolledAt))
	},
})
new Gauge({
	name: 'dareboost_sweeper_lag_seconds',
	help: 'Seconds since the vote sweeper last finished a round (-1: not yet).',
	registers: [metrics],
	collect() {
		this.set(since(readings.sweptAt))
	},
})
new Gauge({
	name: 'dareboost_db_pool_connections',
	help: 'Postgres pool connections, by state (in use, idle), and requests waiting for one.',
	labelNames: ['state'] as const,
	registers: [metrics],
	collect() {
		const pool = readings.pool?.()
		if (!pool) return
		this.set({ state: 'in_use' }, pool.total - pool.idle)
		this.set({ state: 'idle' }, pool.idle)
		this.set({ state: 'waiting' }, pool.waiting)
	},
})

/**
 * Who may read /metrics: a request from this machine that no proxy relayed,
 * or one with `Authorization: Bearer <METRICS_TOKEN>`.
 */
export function mayReadMetrics(local: boolean, authorization: string | undefined, token: string | undefined): boolean {
	if (local) return true
	if (!token || !authorization?.startsWith('Bearer ')) return false
	const given = Buffer.from(authorization.slice('Bearer '.length))
	const expected = Buffer.from(token)
	return given.length === expected.length && timingSafeEqual(given, expected)
}
