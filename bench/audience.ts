/**
 * A live session's audience (issue 22, "The hot path"): N real realtime-js
 * subscribers of one session's topic that apply its updates exactly as the
 * session page does, while M signed-in viewers boost one dare over HTTP at a
 * fixed rate. On a Postgres server by default (the production build, as a
 * server deployment runs it); BENCH_EMBEDDED=1 runs it on the embedded
 * default (PGlite inside the app's process).
 *
 * Each subscriber is a page as the browser runs it, without React:
 *  - its data from a real page load: the session page's `.data` URL (React
 *    Router's single fetch, decoded with React Router's own turbo-stream
 *    decoder), as a visitor; one load per subscriber (BENCH_SHARE=k: one
 *    load shared by k subscribers);
 *  - `SessionFeed` (app/modules/realtime/session-feed.ts) started from that
 *    load's dares, session state (`sessionState`, use-session-feed.ts) and
 *    `covered`, as useSessionFeed does;
 *  - a real RealtimeClient of @supabase/realtime-js with the page's options
 *    (`realtimeOptions`, use-live.ts: the token from /api/realtime/token,
 *    fetched again when less than a minute is left, the library's defaults
 *    for the rest), joined to the private channel `session_updates_{id}`,
 *    event `update`, over `ws` from its own local address (the relay allows 20
 *    sockets per client address: they spread over 127.x.y.1);
 *  - each update goes to `feed.receive`; on 'refetch' (and after a rejoin)
 *    it reads the page's `.data` again, as the page's revalidation does, and
 *    `rebase`s on it. Those reads are the HTTP requests an update caused.
 *
 * The boosts: the demo viewers (signed in through the sign-in form, the terms
 * accepted) post the boost form as the page's script sends it (to the
 * route's `.data` URL with `respond=data`, a fresh idempotency key each, 10
 * coins), open loop at BENCH_RATE per second in total, all on ONE hot dare of
 * the session (the other dares of the session stay as they are).
 *
 * Latency, update-to-applied: for each boost and each subscriber, from the
 * moment the boost's HTTP response arrived to the moment that subscriber's
 * feed first showed a pot including it. On Postgres which pot includes boost
 * k is exact: boosts of one dare take the dare's row lock (boost_dare: select
 * ... for update) before their boosts row gets its id, so their ids are in
 * commit order, and the pot after the k-th is the pot before the run plus
 * 10·k. On the embedded default the bench cannot read the database (PGlite is
 * inside the server), so it takes the pot the boost's own answer read after
 * its commit, which may include boosts committed just after it: an upper
 * bound. A feed that showed it before the response counts 0 (and is counted).
 * All clocks are process.hrtime (one monotonic clock for every thread).
 *
 * Also printed: bytes per update (the payload's JSON, and the frame on the
 * wire), the server's CPU (utime + stime of its process from /proc) and RSS
 * per 1,000 subscribers (CPU also with the same boosts and no subscriber, so
 * the difference is what the subscribers cost), and whether every
 * subscriber's final state deep-equals a fresh page load's (the session's
 * state and its dares, as the page shows them to a visitor).
 *
 * Subscribers run in BENCH_WORKERS worker threads (default: one per 2,500),
 * on the same two cores as the server and the database: their figures include
 * their own queueing and are upper bounds.
 *
 *   npm run build && BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:audience
 *   npm run build && BENCH_EMBEDDED=1 npm run bench:audience
 *
 * BENCH_SUBSCRIBERS (default 10,000 on Postgres, 1,000 embedded), BENCH_RATE
 * (100 / 20 boosts per second), BENCH_SECONDS (20), BENCH_DARES (dares in
 * the session, Postgres only: 20), BENCH_WORKERS, BENCH_SHARE (1),
 * BENCH_NICE (the subscriber threads' nice value, 0: with 10 the server and
 * the boosts keep the rate while the subscribers take what is left). Targets
 * (issue 22): 10,000 subscribers with 100 boosts/s on Postgres, 1,000 with
 * 20/s embedded; p99 < 500 ms, 0 requests per update, every state equal.
 */
import { randomUUID } from 'node:crypto'
import { readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { createRequire } from 'node:module'
import { cpus, setPriority } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import { pathToFileURL } from 'node:url'
import { isDeepStrictEqual } from 'node:util'
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads'
import { RealtimeClient } from '@supabase/realtime-js'
import { UNSAFE_decodeViaTurboStream as decodeTurboStream } from 'react-router'
import WebSocket from 'ws'
import type { Database } from '../app/db/database.server'
import type { DareView } from '../app/modules/dares/service.server'
import { SessionFeed, type SessionView } from '../app/modules/realtime/session-feed'
import { LOCAL_API_KEY, realtimeOptions } from '../app/modules/realtime/use-live'
import { sessionState } from '../app/modules/realtime/use-session-feed'

const EMBEDDED = process.env.BENCH_EMBEDDED === '1'
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? (EMBEDDED ? 1000 : 10_000))
const RATE = Number(process.env.BENCH_RATE ?? (EMBEDDED ? 20 : 100))
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20)
const NICE = Number(process.env.BENCH_NICE ?? 0)
if (!Number.isInteger(NICE) || NICE < 0 || NICE > 19) throw new Error('BENCH_NICE: a nice value from 0 to 19 (lower ones need privileges)')
const DARES = Number(process.env.BENCH_DARES ?? 20)
const WORKERS = Number(process.env.BENCH_WORKERS ?? Math.max(1, Math.ceil(SUBSCRIBERS / 2500)))
const SHARE = Math.max(1, Number(process.env.BENCH_SHARE ?? 1))
/** The boosts with no subscriber (the server's CPU without them). */
const BASELINE_SECONDS = Math.min(5, SECONDS)
const SOCKETS_PER_ADDRESS = 20
const BOOST = 10
/** A token is fetched again when less than this is left of it (use-live.ts). */
const RENEW_BEFORE_MS = 60_000
/** Histogram: 0.1 ms buckets up to 30 s. */
const BUCKETS = 300_001

/** One monotonic clock for every thread, in ms. */
const now = () => Number(process.hrtime.bigint()) / 1e6

/** The i-th subscriber's source address: 20 sockets each, from 127.1.1.1 on (as bench/realtime.ts). */
function localAddress(i: number) {
	const n = Math.floor(i / SOCKETS_PER_ADDRESS)
	return `127.${1 + Math.floor(n / 250)}.${1 + (n % 250)}.1`
}

function quantile(buckets: Uint32Array, q: number): number {
	let total = 0
	for (const n of buckets) total += n
	if (total === 0) return NaN
	const target = Math.ceil(q * total)
	let seen = 0
	for (let i = 0; i < buckets.length; i++) {
		seen += buckets[i]!
		if (seen >= target) return i / 10
	}
	return NaN
}

/** What a page reads: the session route's data from its `.data` URL, as React Router's single fetch reads it. */
interface PageData {
	status: 'active' | 'ended'
	dares: DareView[]
	covered: number
	potOf: (id: string) => number
}

async function loadPage(base: string, sessionId: string, headers: Record<string, string> = {}): Promise<PageData & { root: Record<string, unknown> }> {
	const response = await fetch(`${base}/en/session/${sessionId}.data`, { headers })
	if (!response.ok || !response.body) throw new Error(`page data: ${response.status}`)
	const decoded = await decodeTurboStream(response.body, globalThis as never)
	await decoded.done
	const value = decoded.value as Record<string, { data?: Record<string, unknown> }>
	const page = value['routes/session']?.data as { session: { status: 'active' | 'ended' }; dares: DareView[]; covered: number } | undefined
	if (!page) throw new Error(`page data without the session route: ${JSON.stringify(value).slice(0, 200)}`)
	return {
		status: page.session.status,
		dares: page.dares,
		covered: page.covered,
		potOf: (id) => page.dares.find((d) => d.id === id)?.pot ?? NaN,
		root: (value.root?.data ?? {}) as Record<string, unknown>,
	}
}

/** The page's starting state from its loader's data (session-page.tsx → useSessionFeed). */
const viewOf = (page: PageData): SessionView => ({ session: sessionState(page.status, page.dares), dares: page.dares })

// ---------------------------------------------------------------------------------------------
// Subscribers (worker threads)

interface WorkerInput {
	base: string
	sessionId: string
	hotDareId: string
	first: number
	count: number
	share: number
	/** This worker measures the bytes of each update on its first subscriber. */
	probe: boolean
}

type ToWorker =
	| { type: 'phase'; phase: 'window' | 'settle' }
	| { type: 'status' }
	| { type: 'finish'; fresh: SessionView; thresholds: Float64Array; responses: Float64Array; requests: Float64Array }

interface Subscriber {
	feed: SessionFeed
	client: RealtimeClient
	/** The hot dare's pot as the feed showed it, when it changed: [ms, pot, ms, pot, ...]. */
	timeline: number[]
	lastPot: number
	/** Times the hot dare's pot went down in the feed (it only grows under boosts). */
	backwards: number
	received: number
	rejoins: number
}

async function subscriberWorker(input: WorkerInput) {
	const port = parentPort!
	// BENCH_NICE: this thread's nice value (Linux: per thread), so the server and the boosts come first on a machine the subscribers fill.
	if (NICE > 0) setPriority(0, NICE)
	const { base, sessionId, hotDareId } = input
	const wsBase = `${base.replace(/^http/, 'ws')}/realtime/v1`
	const subscribers: Subscriber[] = []
	let phase: 'setup' | 'window' | 'settle' = 'setup'
	const counts = {
		setup: { refetches: 0, tokens: 0 },
		window: { refetches: 0, tokens: 0 },
		settle: { refetches: 0, tokens: 0 },
		loads: 0,
		refetchErrors: 0,
		channelErrors: 0,
		outcomes: { applied: 0, refetch: 0, ignored: 0 },
	}
	let inFlight = 0
	let lastMessageAt = 0
	const seqs = new Set<number>()
	const payloadBytes: number[] = []
	const frameBytes: number[] = []

	const hotPot = (view: SessionView) => view.dares.find((d) => d.id === hotDareId)?.pot ?? NaN
	const record = (s: Subscriber, at: number) => {
		const pot = hotPot(s.feed.view)
		if (pot === s.lastPot) return
		if (pot < s.lastPot) s.backwards++
		s.lastPot = pot
		s.timeline.push(at, pot)
	}
	/** The page's catch-up (useCatchUp → revalidate): its data read again, then rebase (useSessionFeed). */
	const refetch = async (s: Subscriber) => {
		counts[phase].refetches++
		inFlight++
		try {
			const page = await loadPage(base, sessionId)
			s.feed.rebase(viewOf(page), page.covered)
			record(s, now())
		} catch {
			counts.refetchErrors++
		} finally {
			inFlight--
		}
	}

	const subscribe = async (index: number, page: PageData) => {
		const feed = new SessionFeed(viewOf(page), page.covered)
		// The page's accessToken (use-live.ts clientFor): a token until a minute before it expires.
		let token: { token: string | null; expiresAt: number } | null = null
		const accessToken = async () => {
			if (!token || token.expiresAt - Date.now() < RENEW_BEFORE_MS) {
				counts[phase].tokens++
				const response = await fetch(`${base}/api/realtime/token`, { cache: 'no-store' })
				if (!response.ok) return null
				token = (await response.json()) as { token: string | null; expiresAt: number }
			}
			return token.token
		}
		const address = localAddress(index)
		const measure = input.probe && index === input.first
		// ws from this subscriber's own address, with the Origin a browser sends.
		class Transport extends WebSocket {
			constructor(url: string, protocols?: string | string[]) {
				super(url, protocols, { localAddress: address, origin: base })
				// The frames of the topic's updates (not the replies and heartbeats), once the boosts started.
				if (measure)
					this.on('message', (data: Buffer | ArrayBuffer) => {
						if (phase !== 'setup' && Buffer.from(data as ArrayBuffer).includes('"event":"update"')) frameBytes.push(data.byteLength)
					})
			}
		}
		const client = new RealtimeClient(wsBase, { ...realtimeOptions(accessToken, LOCAL_API_KEY), transport: Transport as never })
		await client.setAuth()
		const s: Subscriber = { feed, client, timeline: [], lastPot: NaN, backwards: 0, received: 0, rejoins: 0 }
		record(s, now())
		subscribers.push(s)
		await new Promise<void>((resolve, reject) => {
			let joinedBefore = false
			client
				.channel(`session_updates_${sessionId}`, { config: { private: true } })
				.on('broadcast', { event: 'update' }, (message) => {
					const at = now()
					lastMessageAt = at
					s.received++
					const payload = message.payload as { seq?: unknown }
					if (phase !== 'setup' && typeof payload?.seq === 'number') seqs.add(payload.seq)
					if (measure && phase !== 'setup') payloadBytes.push(Buffer.byteLength(JSON.stringify(message.payload)))
					// As useSessionFeed's handler.
					const outcome = feed.receive(message.payload)
					counts.outcomes[outcome]++
					if (outcome === 'refetch') void refetch(s)
					if (outcome === 'applied') record(s, at)
				})
				.subscribe((status, error) => {
					if (status === 'SUBSCRIBED') {
						if (joinedBefore) {
							s.rejoins++
							if (feed.rejoined() === 'refetch') void refetch(s)
						} else resolve()
						joinedBefore = true
					} else {
						counts.channelErrors++
						if (!joinedBefore) reject(new Error(`subscriber ${index}: ${status} ${error?.message ?? ''}`))
					}
				})
		})
	}

	// Setup: page loads (one per `share` subscribers), then each joins; 50 at a time.
	const indexes = Array.from({ length: input.count }, (_, k) => input.first + k)
	let shared: PageData | null = null
	for (let k = 0; k < indexes.length; k += 50) {
		await Promise.all(
			indexes.slice(k, k + 50).map(async (index) => {
				let page: PageData
				if (input.share > 1 && shared && (index - input.first) % input.share !== 0) page = shared
				else {
					page = await loadPage(base, sessionId)
					counts.loads++
					if (input.share > 1) shared = page
				}
				await subscribe(index, page)
			}),
		)
	}
	port.postMessage({ type: 'ready', loads: counts.loads, tokens: counts.setup.tokens })

	port.on('message', (message: ToWorker) => {
		if (message.type === 'phase') {
			phase = message.phase
			if (phase === 'window') for (const s of subscribers) s.received = 0
		} else if (message.type === 'status') {
			port.postMessage({ type: 'status', inFlight, lastMessageAt, refetching: subscribers.filter((s) => s.feed.refetching).length })
		} else if (message.type === 'finish') {
			port.postMessage({ type: 'result', ...finish(message.fresh, message.thresholds, message.responses, message.requests) })
		}
	})

	/**
	 * Per subscriber and boost: when the feed first showed a pot of at least
	 * the boost's (`thresholds`, ascending, with the boosts' response times).
	 */
	function finish(fresh: SessionView, thresholds: Float64Array, responses: Float64Array, requests: Float64Array) {
		const latency = new Uint32Array(BUCKETS)
		const fromRequest = new Uint32Array(BUCKETS)
		let early = 0
		let never = 0
		let equal = 0
		let backwards = 0
		let received = 0
		let rejoins = 0
		const examples: string[] = []
		for (const s of subscribers) {
			const t = s.timeline
			let i = 0
			let max = -Infinity
			let at = NaN
			for (let k = 0; k < thresholds.length; k++) {
				while (max < thresholds[k]! && i < t.length) {
					if (t[i + 1]! > max) {
						max = t[i + 1]!
						at = t[i]!
					}
					i += 2
				}
				if (max < thresholds[k]!) {
					never += thresholds.length - k
					break
				}
				let ms = at - responses[k]!
				if (ms < 0) {
					early++
					ms = 0
				}
				latency[Math.min(BUCKETS - 1, Math.round(ms * 10))]!++
				fromRequest[Math.min(BUCKETS - 1, Math.round(Math.max(0, at - requests[k]!) * 10))]!++
			}
			if (isDeepStrictEqual(s.feed.view, fresh)) equal++
			else if (examples.length < 3) examples.push(difference(s.feed.view, fresh))
			backwards += s.backwards
			received += s.received
			rejoins += s.rejoins
		}
		return {
			latency,
			fromRequest,
			early,
			never,
			equal,
			unequal: subscribers.length - equal,
			examples,
			backwards,
			received,
			rejoins,
			counts,
			seqs: [...seqs],
			payloadBytes,
			frameBytes,
		}
	}

	function difference(view: SessionView, fresh: SessionView): string {
		if (!isDeepStrictEqual(view.session, fresh.session)) return `session ${JSON.stringify(view.session)} vs fresh ${JSON.stringify(fresh.session)}`
		if (view.dares.length !== fresh.dares.length) return `${view.dares.length} dares vs fresh ${fresh.dares.length}`
		for (let i = 0; i < view.dares.length; i++) {
			const a = view.dares[i]!
			const b = fresh.dares[i]!
			if (a.id !== b.id) return `dare #${i}: ${a.id} vs fresh ${b.id}`
			for (const key of Object.keys(b) as Array<keyof DareView>) {
				if (!isDeepStrictEqual(a[key], b[key])) return `dare ${a.id} ${key}: ${JSON.stringify(a[key])} vs fresh ${JSON.stringify(b[key])}`
			}
		}
		return 'differs'
	}
}

// ---------------------------------------------------------------------------------------------
// The server, the boosts, the figures (main thread)

interface WorkerResult {
	latency: Uint32Array
	fromRequest: Uint32Array
	early: number
	never: number
	equal: number
	unequal: number
	examples: string[]
	backwards: number
	received: number
	rejoins: number
	counts: {
		setup: { refetches: number; tokens: number }
		window: { refetches: number; tokens: number }
		settle: { refetches: number; tokens: number }
		loads: number
		refetchErrors: number
		channelErrors: number
		outcomes: { applied: number; refetch: number; ignored: number }
	}
	seqs: number[]
	payloadBytes: number[]
	frameBytes: number[]
}

/** The process listening on a local TCP port (the embedded server runs as a child of the test starter). */
function pidListening(port: number): number {
	const hex = port.toString(16).toUpperCase().padStart(4, '0')
	const inodes = new Set<string>()
	for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
		for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
			const cols = line.trim().split(/\s+/)
			if (cols[1]?.endsWith(`:${hex}`) && cols[3] === '0A') inodes.add(cols[9]!)
		}
	}
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue
		try {
			for (const fd of readdirSync(`/proc/${entry}/fd`)) {
				const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${entry}/fd/${fd}`))
				if (m && inodes.has(m[1]!)) return Number(entry)
			}
		} catch {
			// not ours to read, or gone
		}
	}
	throw new Error(`nothing listens on port ${port}`)
}

interface Boost {
	key: string
	sentAt: number
	answeredAt: number
	/** The dare's pot as the boost's answer read it, after its commit. */
	pot: number
}

/** Boosts at `rate` per second for `seconds`, open loop (at most 256 in flight), the viewers taking turns. */
async function runBoosts(base: string, sessionId: string, dareId: string, cookies: string[], rate: number, seconds: number) {
	const done: Boost[] = []
	const refused: string[] = []
	let inFlight = 0
	let sent = 0
	let skipped = 0
	const boost = async (cookie: string) => {
		inFlight++
		const key = `bench:${randomUUID()}`
		const sentAt = now()
		try {
			const response = await fetch(`${base}/en/session/${sessionId}.data`, {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base, cookie },
				body: new URLSearchParams({ intent: 'boost', sessionId, dareId, amount: String(BOOST), key, respond: 'data' }),
			})
			const answeredAt = now()
			const decoded = await decodeTurboStream(response.body!, globalThis as never)
			await decoded.done
			const result = (decoded.value as { data?: { ok: boolean; error?: string; dare?: DareView | null } }).data
			if (result?.ok && result.dare) done.push({ key, sentAt, answeredAt, pot: result.dare.pot })
			else refused.push(result?.error ?? `${response.status} ${JSON.stringify(decoded.value).slice(0, 120)}`)
		} catch (error) {
			refused.push(String(error))
		} finally {
			inFlight--
		}
	}
	const started = now()
	while (now() - started < seconds * 1000) {
		const due = Math.floor(((now() - started) / 1000) * rate)
		while (sent < due) {
			if (inFlight >= 256) {
				skipped += due - sent
				sent = due
				break
			}
			void boost(cookies[sent % cookies.length]!)
			sent++
		}
		await sleep(2)
	}
	while (inFlight > 0) await sleep(5)
	return { done, refused, skipped, elapsed: (now() - started) / 1000 }
}

function spread(values: number[]) {
	if (values.length === 0) return '-'
	const sorted = [...values].sort((a, b) => a - b)
	return `min ${sorted[0]}  p50 ${sorted[Math.floor(sorted.length / 2)]}  max ${sorted[sorted.length - 1]}`
}

const pct = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? NaN
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length)
const ms = (v: number) => (Number.isNaN(v) ? '-' : `${v.toFixed(1)} ms`)

async function main() {
	const { DEMO_PASSWORD, DEMO_SESSIONS, DEMO_USERS } = await import('../app/db/seed.server')
	const { cpuSeconds, cpuSplit, machineCpu, postgresCpuSeconds, rssMb, signInCookie, startDemoServer, startPostgresServer, writeDares } = await import('./support')
	let base: string
	let pid: number
	let stop: () => Promise<void>
	let db: Database | null = null
	let database = ''
	let sessionId: string
	let hotDareId: string
	let viewers: Array<{ id: string; email: string }>
	if (EMBEDDED) {
		const server = await startDemoServer()
		base = server.base
		stop = server.stop
		pid = pidListening(Number(new URL(base).port))
		// A demo live session and its open dare, the demo viewers who are not its creator.
		sessionId = DEMO_SESSIONS.miaLive.id
		hotDareId = 'de300000-0000-4000-8000-0000000d0002'
		viewers = Object.values(DEMO_USERS).filter((u) => u.id !== DEMO_USERS.mia.id)
	} else {
		const server = await startPostgresServer()
		base = server.base
		pid = server.pid
		stop = server.stop
		database = new URL(server.databaseUrl).pathname.slice(1)
		const { createDatabase } = await import('../app/db/database.server')
		db = await createDatabase({ url: server.databaseUrl, poolSize: 2 })
		const sql = db
		const user = async (name: string) => {
			const id = randomUUID()
			await sql.query(`insert into auth.users (id, aud, role, email) values ($1, 'authenticated', 'authenticated', $2)`, [id, `${name}-${id}@bench.local`])
			await sql.query('insert into public.profiles (id, username) values ($1, $2)', [id, `${name}${id.slice(0, 8)}`])
			await sql.query(
				`insert into public.consents (user_id, kind, version) values ($1, 'terms_of_service', app_private.current_document_version('terms_of_service')) on conflict do nothing`,
				[id],
			)
			return id
		}
		// A session of its own (no demo viewer is its creator) with BENCH_DARES dares; the first is the hot one.
		const creator = await user('creator')
		const { rows } = await sql.query<{ id: string }>(
			`insert into public.sessions (creator_id, title, platform, channel, max_dares_per_user, max_free_dares_per_user) values ($1, 'Audience bench', 'twitch', $2, 100, 100) returning id`,
			[creator, `aud_${creator.slice(0, 8)}`],
		)
		sessionId = rows[0]!.id
		const dares = await writeDares(sql, sessionId, DARES, () => user('author'), (i) => `Audience dare number ${i}`)
		hotDareId = dares[0]!
		viewers = Object.values(DEMO_USERS)
		for (const v of viewers) {
			await sql.query(`select * from ledger.transfer(ledger.system_account('world'), ledger.wallet_account($1), 100000000, 'purchase', 'bench', $2)`, [v.id, `bench-fund:${randomUUID()}`])
		}
	}
	const workers: Worker[] = []
	try {
		// The viewers: signed in, the current terms accepted (as the terms dialog posts them).
		const cookies = await Promise.all(viewers.map((v) => signInCookie(base, v.email, DEMO_PASSWORD)))
		const first = await loadPage(base, sessionId)
		const version = (first.root.documents as Record<string, string>).terms_of_service!
		for (const cookie of cookies) {
			const r = await fetch(`${base}/api/auth/consent`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', origin: base, cookie },
				body: JSON.stringify({ type: 'terms_of_service', version }),
			})
			if (!r.ok) throw new Error(`terms not accepted: ${r.status} ${await r.text()}`)
		}
		console.log(`load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} on ${cpus().length} cores`)
		console.log(
			`audience: ${EMBEDDED ? 'embedded default (PGlite in the app process)' : 'Postgres server'}, app ${base} (pid ${pid}); session ${sessionId} with ${first.dares.length} dares, hot dare ${hotDareId}`,
		)
		console.log(
			`${SUBSCRIBERS} subscribers in ${WORKERS} worker threads (${SHARE === 1 ? 'each its own page load' : `one page load per ${SHARE}`}), ${viewers.length} signed-in viewers boosting ${BOOST} coins at ${RATE}/s for ${SECONDS} s on the hot dare\n`,
		)

		// The server's CPU with the same boosts and no subscriber.
		let cpu0 = cpuSeconds(pid)
		const baseline = await runBoosts(base, sessionId, hotDareId, cookies, RATE, BASELINE_SECONDS)
		const baselineCpu = (cpuSeconds(pid) - cpu0) / baseline.elapsed
		const baselineHttp = baseline.done.map((b) => b.answeredAt - b.sentAt).sort((a, b) => a - b)
		console.log(
			`no subscriber yet: ${baseline.done.length} boosts answered in ${baseline.elapsed.toFixed(1)} s (${(baseline.done.length / baseline.elapsed).toFixed(1)}/s of ${RATE}/s), ${baseline.refused.length} refused, ${baseline.skipped} not sent; HTTP p50 ${ms(pct(baselineHttp, 0.5))} p99 ${ms(pct(baselineHttp, 0.99))}; server CPU ${(baselineCpu * 100).toFixed(0)} % of a core`,
		)
		await sleep(1000)

		// The subscribers.
		const rssBefore = rssMb(pid)
		const setupStart = now()
		const per = Math.ceil(SUBSCRIBERS / WORKERS)
		const ready: Array<Promise<{ loads: number; tokens: number }>> = []
		for (let w = 0; w < WORKERS; w++) {
			const count = Math.min(per, SUBSCRIBERS - w * per)
			if (count <= 0) break
			const input: WorkerInput = { base, sessionId, hotDareId, first: w * per, count, share: SHARE, probe: w === 0 }
			// This file again in a worker thread, through tsx's loader (a worker does not inherit it).
			const worker = new Worker(
				`import(${JSON.stringify(pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href.replace(/\.cjs$/, '.mjs'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}) })`,
				{ eval: true, workerData: input },
			)
			workers.push(worker)
			ready.push(
				new Promise((resolve, reject) => {
					worker.once('error', reject)
					worker.once('message', resolve)
				}),
			)
		}
		const setup = await Promise.all(ready)
		const setupSeconds = (now() - setupStart) / 1000
		await sleep(2000)
		const rssJoined = rssMb(pid)
		const ask = <T>(worker: Worker, message: ToWorker, type: string) =>
			new Promise<T>((resolve) => {
				const on = (m: { type: string }) => {
					if (m.type !== type) return
					worker.off('message', on)
					resolve(m as T)
				}
				worker.on('message', on)
				worker.postMessage(message)
			})
		console.log(
			`setup: ${SUBSCRIBERS} joined in ${setupSeconds.toFixed(1)} s (${setup.reduce((a, r) => a + r.loads, 0)} page loads, ${setup.reduce((a, r) => a + r.tokens, 0)} token requests); app RSS ${rssBefore.toFixed(0)} MB before, ${rssJoined.toFixed(0)} MB joined`,
		)

		// The window: boosts at the rate, with the subscribers.
		for (const w of workers) w.postMessage({ type: 'phase', phase: 'window' } satisfies ToWorker)
		cpu0 = cpuSeconds(pid)
		const split0 = cpuSplit(pid)
		const pg0 = EMBEDDED ? 0 : postgresCpuSeconds(database)
		const own0 = process.cpuUsage()
		const machine0 = machineCpu()
		let rssPeak = rssJoined
		const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(pid))), 500)
		const run = await runBoosts(base, sessionId, hotDareId, cookies, RATE, SECONDS)
		clearInterval(sampler)
		const serverCpu = (cpuSeconds(pid) - cpu0) / run.elapsed
		const split1 = cpuSplit(pid)
		const serverSystem = (split1.system - split0.system) / run.elapsed
		const pgCpu = EMBEDDED ? NaN : (postgresCpuSeconds(database) - pg0) / run.elapsed
		const ownUsage = process.cpuUsage(own0)
		const ownCpu = (ownUsage.user + ownUsage.system) / 1e6 / run.elapsed
		const machine1 = machineCpu()
		const machineBusy = (machine1.busy - machine0.busy) / (machine1.total - machine0.total)

		// Settling: no refetch under way and no update for two seconds.
		for (const w of workers) w.postMessage({ type: 'phase', phase: 'settle' } satisfies ToWorker)
		const settleStart = now()
		for (;;) {
			await sleep(250)
			const statuses = await Promise.all(workers.map((w) => ask<{ inFlight: number; lastMessageAt: number; refetching: number }>(w, { type: 'status' }, 'status')))
			const quiet = statuses.every((s) => s.inFlight === 0 && now() - s.lastMessageAt > 2000)
			if (quiet || now() - settleStart > 60_000) break
		}

		// Which pot includes each boost.
		let thresholds: number[]
		let responses: number[]
		let requests: number[]
		let attribution: string
		if (db) {
			const { rows } = await db.query<{ key: string }>('select idempotency_key as key from public.boosts where dare_id = $1 order by id', [hotDareId])
			const answered = new Map(run.done.map((b) => [`boost:${b.key}`, b]))
			// Every boost of the hot dare is the bench's, of 10 coins: the k-th made the pot the first load's plus 10·k.
			const p0 = first.potOf(hotDareId)
			thresholds = []
			responses = []
			requests = []
			rows.forEach((r, k) => {
				const b = answered.get(r.key)
				if (!b) return
				thresholds.push(p0 + BOOST * (k + 1))
				responses.push(b.answeredAt)
				requests.push(b.sentAt)
			})
			attribution = 'exact (the boosts in commit order: boosts.id on one dare)'
		} else {
			const sorted = [...run.done].sort((a, b) => a.pot - b.pot)
			thresholds = sorted.map((b) => b.pot)
			responses = sorted.map((b) => b.answeredAt)
			requests = sorted.map((b) => b.sentAt)
			attribution = 'upper bound (the pot the boost’s answer read after its commit)'
		}
		const fresh = await loadPage(base, sessionId)
		const results = await Promise.all(
			workers.map((w) =>
				ask<WorkerResult>(w, { type: 'finish', fresh: viewOf(fresh), thresholds: Float64Array.from(thresholds), responses: Float64Array.from(responses), requests: Float64Array.from(requests) }, 'result'),
			),
		)

		// The figures.
		const latency = new Uint32Array(BUCKETS)
		const fromRequest = new Uint32Array(BUCKETS)
		for (const r of results) for (let i = 0; i < BUCKETS; i++) {
			latency[i]! += r.latency[i]!
			fromRequest[i]! += r.fromRequest[i]!
		}
		const sum = (f: (r: WorkerResult) => number) => results.reduce((a, r) => a + f(r), 0)
		const updates = new Set(results.flatMap((r) => r.seqs)).size
		const refetches = sum((r) => r.counts.window.refetches + r.counts.settle.refetches)
		const tokens = sum((r) => r.counts.window.tokens + r.counts.settle.tokens)
		const received = sum((r) => r.received)
		const probe = results[0]!
		const perThousand = SUBSCRIBERS / 1000
		const httpTimes = run.done.map((b) => b.answeredAt - b.sentAt).sort((a, b) => a - b)

		console.log(
			`boosts: ${run.done.length} answered in ${run.elapsed.toFixed(1)} s (${(run.done.length / run.elapsed).toFixed(1)}/s of ${RATE}/s), ${run.refused.length} refused${run.refused.length ? ` (${run.refused[0]})` : ''}, ${run.skipped} not sent (256 in flight); HTTP p50 ${ms(pct(httpTimes, 0.5))} p99 ${ms(pct(httpTimes, 0.99))}`,
		)
		console.log(
			`updates: ${updates} on the topic (${(updates / run.elapsed).toFixed(1)}/s); delivered ${((received / (updates * SUBSCRIBERS)) * 100).toFixed(2)} % of updates × subscribers; feed outcomes applied ${sum((r) => r.counts.outcomes.applied)}, refetch ${sum((r) => r.counts.outcomes.refetch)}, ignored ${sum((r) => r.counts.outcomes.ignored)}; rejoins ${sum((r) => r.rejoins)}, channel errors ${sum((r) => r.counts.channelErrors)}`,
		)
		console.log(
			`HTTP requests caused per update per subscriber: ${(refetches / Math.max(1, updates * SUBSCRIBERS)).toFixed(6)} (${refetches} page reads, ${sum((r) => r.counts.refetchErrors)} failed; ${tokens} token requests; before the window: ${sum((r) => r.counts.setup.refetches)} page reads)`,
		)
		console.log(
			`bytes per update: payload JSON ${spread(probe.payloadBytes)}; frame on the wire ${spread(probe.frameBytes)} (one subscriber); ${((mean(probe.frameBytes) * SUBSCRIBERS) / 1024).toFixed(0)} KiB per update over all subscribers`,
		)
		console.log(
			`update-to-applied latency from the boost's response (${attribution}): p50 ${ms(quantile(latency, 0.5))}  p90 ${ms(quantile(latency, 0.9))}  p99 ${ms(quantile(latency, 0.99))}  max ${ms(quantile(latency, 1))} over ${latency.reduce((a, b) => a + b, 0)} boost × subscriber pairs; shown before the response ${sum((r) => r.early)}, never shown ${sum((r) => r.never)}`,
		)
		console.log(
			`  from the boost's request (an upper bound of commit-to-applied): p50 ${ms(quantile(fromRequest, 0.5))}  p90 ${ms(quantile(fromRequest, 0.9))}  p99 ${ms(quantile(fromRequest, 0.99))}`,
		)
		console.log(
			`server CPU: ${(serverCpu * 100).toFixed(0)} % of a core (${(serverSystem * 100).toFixed(0)} % of it in the kernel) with ${SUBSCRIBERS} subscribers, ${(baselineCpu * 100).toFixed(0)} % with none at ${(baseline.done.length / baseline.elapsed).toFixed(0)} boosts/s; less the boosts made (${((baselineCpu / Math.max(1, baseline.done.length / baseline.elapsed)) * 1000).toFixed(1)} ms each without subscribers), ${(((serverCpu - (baselineCpu / Math.max(1, baseline.done.length / baseline.elapsed)) * (run.done.length / run.elapsed)) / perThousand) * 100).toFixed(1)} % of a core per 1,000 subscribers (${((serverCpu / perThousand) * 100).toFixed(1)} % all told)${EMBEDDED ? ' (the database runs inside it)' : `; Postgres processes ${(pgCpu * 100).toFixed(0)} %`}; this bench (boosts and subscribers) ${(ownCpu * 100).toFixed(0)} %; the machine ${(machineBusy * 100 * cpus().length).toFixed(0)} % of ${cpus().length * 100} % busy (${((machineBusy * cpus().length - serverCpu - (EMBEDDED ? 0 : pgCpu) - ownCpu) * 100).toFixed(0)} % of it other processes)`,
		)
		console.log(
			`server memory: RSS ${rssBefore.toFixed(0)} MB before, ${rssJoined.toFixed(0)} MB joined, ${rssPeak.toFixed(0)} MB peak: ${((rssJoined - rssBefore) / perThousand).toFixed(1)} MB per 1,000 subscribers joined (${((rssPeak - rssBefore) / perThousand).toFixed(1)} at the peak)${rssJoined < rssBefore ? ' (RSS fell meanwhile: the garbage collector, or PGlite giving memory back; no figure)' : ''}`,
		)
		console.log(
			`final state vs a fresh page load: ${sum((r) => r.equal)} equal, ${sum((r) => r.unequal)} unequal${results.some((r) => r.examples.length) ? ` (e.g. ${results.flatMap((r) => r.examples).slice(0, 3).join('; ')})` : ''}; the hot dare's pot went down ${sum((r) => r.backwards)} times in the feeds`,
		)
		const p99 = quantile(latency, 0.99)
		// The rate is part of the target: boosts that were not sent, or answered late, are updates nobody waited for.
		const rate = run.done.length / run.elapsed
		const missed = [
			...(rate < RATE * 0.95 ? [`boosts at ${rate.toFixed(1)}/s, not ${RATE}/s`] : []),
			...(p99 >= 500 ? [`p99 ${ms(p99)}`] : []),
			...(refetches !== 0 ? [`${refetches} page reads`] : []),
			...(sum((r) => r.unequal) + sum((r) => r.never) !== 0 ? ['states unequal or boosts never shown'] : []),
		]
		console.log(`\ntargets (${RATE} boosts/s, p99 < 500 ms, 0 requests per update, all states equal): ${missed.length === 0 ? 'met' : `NOT met (${missed.join('; ')})`}`)
		if (db) {
			const problems = await db.query('select * from ledger.check()')
			console.log(`ledger.check(): ${problems.rows.length === 0 ? 'no problem' : JSON.stringify(problems.rows)}`)
		}
	} finally {
		await Promise.all(workers.map((w) => w.terminate()))
		await db?.close()
		await stop()
	}
}

if (isMainThread) await main()
else await subscriberWorker(workerData as WorkerInput)
