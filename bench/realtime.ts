/**
 * Live updates under load (issue "Realtime"): N subscribers of one session's
 * topic on one app process (the production build on a Postgres server), while
 * boosts of one dare arrive at 10, 100 and 1,000 per second through the real
 * SQL (boost_dare as signed-in viewers). Measured per subscriber:
 *
 *  - commit-to-client latency: each update carries the dare's pot, so a
 *    subscriber knows which boosts it covers; the latency of an update is
 *    taken for the oldest boost it newly covers (the worst case), from the
 *    moment that boost's COMMIT returned to the moment the frame was read;
 *  - share delivered: the updates a subscriber read of those the topic
 *    carried in the window (the frames any subscriber read: sequence numbers
 *    are shared by all topics, so their gaps say nothing);
 *  - messages per subscriber per second;
 *  - the server's memory per connection (its RSS, connected and joined, less
 *    before).
 *
 * The baseline, in the same run with as many clients: a bare `ws` server in a
 * process of its own, sent the very frames the first relay subscriber read,
 * at the same moments of the window, broadcasting each to all its
 * subscribers. It runs after the relay's windows (the relay and its clients
 * disconnected), so neither competes with the other for the two cores, and
 * this process stays under its 20,000 open files. Both fan-outs are compared
 * by deliveries per second and by the spread between the first and the last
 * subscriber reading a frame.
 *
 * Clients run in this process (its event loop also drives the boosts, so the
 * latencies include its own queueing: they are upper bounds). The relay allows
 * 20 sockets per client address, so the clients spread over 127.x.y.1.
 *
 *   npm run build && BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:realtime
 *
 * BENCH_SUBSCRIBERS (default 1000,5000,10000), BENCH_RATES (10,100,1000) and
 * BENCH_SECONDS (10) tune it. Targets on the 2-core machine: 10,000
 * subscribers with p99 under 250 ms and >= 99.9 % delivered, at most 5
 * messages per subscriber per second whatever the boost rate, and the
 * relay's deliveries per second at least half of the bare ws baseline's.
 */
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import WebSocket from 'ws'
import { asUser } from '../app/db/as-user.server'
import { createDatabase } from '../app/db/database.server'
import { mintRealtimeToken, realtimeKey } from '../app/modules/realtime/tokens.server'
import { BENCH_AUTH_SECRET, freePort, rssMb, startPostgresServer } from './support'

const SUBSCRIBERS = (process.env.BENCH_SUBSCRIBERS ?? '1000,5000,10000').split(',').map(Number)
const RATES = (process.env.BENCH_RATES ?? '10,100,1000').split(',').map(Number)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const BOOST_CONNECTIONS = 8
const SOCKETS_PER_ADDRESS = 20

/** The i-th client's source address: 20 sockets each, from 127.1.1.1 on. */
function localAddress(i: number) {
	const n = Math.floor(i / SOCKETS_PER_ADDRESS)
	return `127.${1 + Math.floor(n / 250)}.${1 + (n % 250)}.1`
}

/** Resident memory in KB (bench/support.ts reads it in MB). */
const rssKb = (pid: number) => rssMb(pid) * 1024

/** Milliseconds, 0.1 ms buckets up to 60 s. */
class Histogram {
	private readonly buckets = new Uint32Array(600_001)
	count = 0
	add(ms: number) {
		this.buckets[Math.min(this.buckets.length - 1, Math.max(0, Math.round(ms * 10)))]!++
		this.count++
	}
	quantile(q: number): number {
		if (this.count === 0) return NaN
		const target = Math.ceil(q * this.count)
		let seen = 0
		for (let i = 0; i < this.buckets.length; i++) {
			seen += this.buckets[i]!
			if (seen >= target) return i / 10
		}
		return NaN
	}
}

const fmt = (ms: number) => (Number.isNaN(ms) ? '   -  ' : `${ms.toFixed(1).padStart(6)}`)

interface Window {
	open: boolean
	relayMessages: number
	baselineMessages: number
	latency: Histogram
	relaySpread: Histogram
	baselineSpread: Histogram
	/** seq -> [first read, last read, readers]: the frames the topic carried in the window are those any subscriber read. */
	relayFrames: Map<number, [number, number, number]>
	baselineFrames: Map<number, [number, number, number]>
}

function newWindow(): Window {
	return {
		open: false,
		relayMessages: 0,
		baselineMessages: 0,
		latency: new Histogram(),
		relaySpread: new Histogram(),
		baselineSpread: new Histogram(),
		relayFrames: new Map(),
		baselineFrames: new Map(),
	}
}

/** One subscriber read the frame `seq` at `now`: the first and last read, and how many read it. */
function recordRead(frames: Map<number, [number, number, number]>, seq: number, now: number) {
	const frame = frames.get(seq)
	if (frame) {
		frame[1] = now
		frame[2]++
	} else frames.set(seq, [now, now, 1])
}

/** A bare ws server: /control frames are sent to every other socket. */
const BASELINE_SERVER = `
const { WebSocketServer } = require('ws')
const wss = new WebSocketServer({ port: Number(process.argv[1]), host: '127.0.0.1' })
const clients = new Set()
wss.on('connection', (ws, req) => {
	if (req.url === '/control') return ws.on('message', (m) => { const text = m.toString(); for (const c of clients) c.send(text) })
	clients.add(ws)
	ws.on('close', () => clients.delete(ws))
})
`

async function main() {
	const server = await startPostgresServer()
	const baselinePort = await freePort()
	const baseline = spawn(process.execPath, ['-e', BASELINE_SERVER, String(baselinePort)], { stdio: ['ignore', 'ignore', 'inherit'] })
	const db = await createDatabase({ url: server.databaseUrl, poolSize: BOOST_CONNECTIONS })
	for (let i = 0; ; i++) {
		const up = await new Promise<boolean>((resolve) => {
			const probe = new WebSocket(`ws://127.0.0.1:${baselinePort}/`)
			probe.once('open', () => (probe.terminate(), resolve(true)))
			probe.once('error', () => resolve(false))
		})
		if (up) break
		if (i > 100) throw new Error('the bare ws server did not start')
		await sleep(100)
	}
	const relayUrl = `${server.base.replace(/^http/, 'ws')}/realtime/v1/websocket?apikey=local&vsn=2.0.0`
	try {
		// A session with one dare, and eight viewers with coins to boost it.
		const user = async (name: string) => {
			const id = randomUUID()
			await db.query(`insert into auth.users (id, aud, role, email) values ($1, 'authenticated', 'authenticated', $2)`, [id, `${name}-${id}@bench.local`])
			await db.query('insert into public.profiles (id, username) values ($1, $2)', [id, `${name}${id.slice(0, 8)}`])
			await db.query(
				`insert into public.consents (user_id, kind, version) values ($1, 'terms_of_service', app_private.current_document_version('terms_of_service'))`,
				[id],
			)
			return id
		}
		const creator = await user('creator')
		const { rows } = await db.query<{ id: string }>(
			`insert into public.sessions (creator_id, title, platform, channel) values ($1, 'Realtime bench', 'twitch', $2) returning id`,
			[creator, `rt_${creator.slice(0, 8)}`],
		)
		const sessionId = rows[0]!.id
		const author = await user('author')
		const dareId = await asUser(db, { sub: author, role: 'authenticated' }, async (tx) => {
			const r = await tx.query<{ id: string }>('select id from public.create_dare($1, $2, 0, $3)', ['Sing the chorus on every boost', sessionId, randomUUID()])
			return r.rows[0]!.id
		})
		const boosters: string[] = []
		for (let i = 0; i < BOOST_CONNECTIONS; i++) {
			const id = await user(`booster${i}`)
			await db.query(`select * from ledger.transfer(ledger.system_account('world'), ledger.wallet_account($1), 100000000, 'purchase', 'bench', $2)`, [
				id,
				`bench-fund:${randomUUID()}`,
			])
			boosters.push(id)
		}
		const topic = `realtime:session_updates_${sessionId}`
		const key = realtimeKey(BENCH_AUTH_SECRET)

		/** Commit times of the boosts, in order: boost k made the pot 10·(k+1) coins. */
		const commits: number[] = []
		let window = newWindow()

		console.log(`realtime: one session, one dare, boosts of 10 coins through boost_dare; ${SECONDS} s per rate; relay ${server.base}, bare ws baseline on :${baselinePort}\n`)
		console.log(
			'subscribers  boosts/s (made)   latency p50     p95     p99 ms   delivered   msgs/sub/s   relay deliveries/s   bare ws deliveries/s   ratio   spread p99 relay / ws ms',
		)
		const memory: string[] = []

		for (const n of SUBSCRIBERS) {
			const { token } = await mintRealtimeToken(key, null)
			const rssBefore = rssKb(server.pid)
			/** What the first subscriber read in each rate's window, to replay to the baseline: [ms since the window opened, frame]. */
			const recorded = new Map<number, Array<[number, string]>>()
			let windowStart = 0
			let rate = 0

			// The relay: N subscribers joined through the app, boosts through SQL.
			const relaySockets: WebSocket[] = []
			/** Per subscriber: the boosts its updates covered so far (all made before it joined). */
			const covered = new Int32Array(n).fill(commits.length)
			const connectRelay = (i: number) =>
				new Promise<void>((resolve, reject) => {
					const ws = new WebSocket(relayUrl, { localAddress: localAddress(i) })
					ws.once('error', reject)
					ws.once('open', () => ws.send(JSON.stringify(['1', '1', topic, 'phx_join', { config: { broadcast: { self: false, ack: false }, private: true }, access_token: token }])))
					ws.on('message', (data) => {
						const now = performance.now()
						const text = data.toString()
						const frame = JSON.parse(text) as [string | null, string | null, string, string, Record<string, unknown>]
						if (frame[3] === 'phx_reply' && frame[1] === '1') {
							const status = (frame[4] as { status?: string }).status
							return status === 'ok' ? resolve() : reject(new Error(`join refused: ${JSON.stringify(frame[4])}`))
						}
						if (frame[3] !== 'broadcast') return
						// An update names the dares it changed (ADR 045): the hot dare, or none.
						const update = (frame[4] as { payload: { seq: number; sessionData: { dares?: Array<{ id: string; pot: number }> } } }).payload
						const pot = (update.sessionData.dares ?? []).find((d) => d.id === dareId)?.pot ?? 0
						const boosts = Math.round(pot / 10)
						if (!window.open) {
							covered[i] = boosts
							return
						}
						if (i === 0) recorded.get(rate)!.push([now - windowStart, text])
						window.relayMessages++
						recordRead(window.relayFrames, update.seq, now)
						if (boosts > covered[i]! && commits[covered[i]!] !== undefined) window.latency.add(now - commits[covered[i]!]!)
						covered[i] = Math.max(covered[i]!, boosts)
					})
					relaySockets.push(ws)
				})
			// In batches (each join is authorised by an SQL transaction).
			for (let i = 0; i < n; i += 200) await Promise.all(Array.from({ length: Math.min(200, n - i) }, (_, k) => connectRelay(i + k)))
			await sleep(1000)
			const rssAfter = rssKb(server.pid)

			const relayFigures = new Map<number, { made: number; elapsed: number; window: Window }>()
			for (const r of RATES) {
				rate = r
				recorded.set(rate, [])
				window = newWindow()
				window.open = true
				let made = 0
				let inFlight = 0
				const started = (windowStart = performance.now())
				const boost = async (booster: string) => {
					inFlight++
					try {
						await asUser(db, { sub: booster, role: 'authenticated' }, (tx) => tx.query('select public.boost_dare($1, 10, $2)', [dareId, randomUUID()]))
						commits.push(performance.now())
						made++
					} finally {
						inFlight--
					}
				}
				// Paced in 10 ms ticks; never more than the pool in flight (a rate the database cannot reach shows as fewer made).
				let due = 0
				let next = 0
				while (performance.now() - started < SECONDS * 1000) {
					due += rate / 100
					while (due >= 1 && inFlight < BOOST_CONNECTIONS) {
						due--
						void boost(boosters[next++ % boosters.length]!)
					}
					if (due > BOOST_CONNECTIONS) due = BOOST_CONNECTIONS
					await sleep(10)
				}
				while (inFlight > 0) await sleep(5)
				// The last updates still on their way.
				await sleep(1000)
				window.open = false
				relayFigures.set(rate, { made, elapsed: (performance.now() - started) / 1000, window })
			}
			for (const ws of relaySockets) ws.terminate()
			await sleep(2000)

			// The baseline: as many subscribers of a bare ws server, sent the frames the relay sent, at the same moments.
			const baselineRssBefore = rssKb(baseline.pid!)
			const control = new WebSocket(`ws://127.0.0.1:${baselinePort}/control`)
			await new Promise((resolve, reject) => control.once('open', resolve).once('error', reject))
			const baselineSockets: WebSocket[] = []
			const connectBaseline = (i: number) =>
				new Promise<void>((resolve, reject) => {
					const ws = new WebSocket(`ws://127.0.0.1:${baselinePort}/`, { localAddress: localAddress(i) })
					ws.once('error', reject)
					ws.once('open', () => resolve())
					ws.on('message', (data) => {
						if (!window.open) return
						const now = performance.now()
						const frame = JSON.parse(data.toString()) as [unknown, unknown, string, string, { payload: { seq: number } }]
						window.baselineMessages++
						recordRead(window.baselineFrames, frame[4].payload.seq, now)
					})
					baselineSockets.push(ws)
				})
			for (let i = 0; i < n; i += 200) await Promise.all(Array.from({ length: Math.min(200, n - i) }, (_, k) => connectBaseline(i + k)))
			await sleep(1000)
			const baselineRssAfter = rssKb(baseline.pid!)
			for (const r of RATES) {
				const relay = relayFigures.get(r)!
				window = relay.window
				window.open = true
				const started = performance.now()
				for (const [at, text] of recorded.get(r)!) {
					const wait = at - (performance.now() - started)
					if (wait > 0) await sleep(wait)
					control.send(text)
				}
				await sleep(Math.max(0, relay.elapsed * 1000 - (performance.now() - started)))
				window.open = false

				// Sequence numbers are shared by all topics (gaps are normal): the frames
				// the topic carried are those any subscriber read.
				const expected = window.relayFrames.size
				const delivered = expected ? [...window.relayFrames.values()].reduce((sum, [, , readers]) => sum + readers, 0) / (expected * n) : NaN
				for (const [, [first, last]] of window.relayFrames) window.relaySpread.add(last - first)
				for (const [, [first, last]] of window.baselineFrames) window.baselineSpread.add(last - first)
				const relayRate = window.relayMessages / relay.elapsed
				const baselineRate = window.baselineMessages / relay.elapsed
				console.log(
					`${String(n).padStart(11)}  ${String(r).padStart(8)} (${(relay.made / SECONDS).toFixed(0).padStart(5)})  ${fmt(window.latency.quantile(0.5))}  ${fmt(window.latency.quantile(0.95))}  ${fmt(window.latency.quantile(0.99))}   ${(delivered * 100).toFixed(2).padStart(7)} %   ${(window.relayMessages / n / relay.elapsed).toFixed(2).padStart(10)}   ${relayRate.toFixed(0).padStart(18)}   ${baselineRate.toFixed(0).padStart(20)}   ${(relayRate / baselineRate).toFixed(2).padStart(5)}   ${fmt(window.relaySpread.quantile(0.99))} / ${fmt(window.baselineSpread.quantile(0.99))}`,
				)
			}
			for (const ws of [...baselineSockets, control]) ws.terminate()
			await sleep(2000)
			memory.push(
				`${String(n).padStart(6)} subscribers: relay ${((rssAfter - rssBefore) / n).toFixed(1)} KB per connection (app RSS ${(rssAfter / 1024).toFixed(0)} MB), bare ws ${((baselineRssAfter - baselineRssBefore) / n).toFixed(1)} KB per connection`,
			)
		}
		console.log(`\nmemory\n${memory.join('\n')}`)
		const problems = await db.query('select * from ledger.check()')
		console.log(`\nledger.check(): ${problems.rows.length === 0 ? 'no problem' : JSON.stringify(problems.rows)}`)
	} finally {
		baseline.kill('SIGTERM')
		await db.close()
		await server.stop()
	}
}

await main()
