/**
 * A realtime join flood from one client (issue 24, finding 7): 20 raw
 * sockets, each joining and leaving 100 topics in a loop, as fast as the
 * relay answers, while /healthz is asked once every 20 ms. Before the
 * relay's join rates and authorisation bound this drove /healthz to 5-7 s on
 * Postgres and to 15 s timeouts on the embedded default. Prints /healthz's
 * latency alone and under the flood, side by side, and what the relay made
 * of the joins. Target: /healthz p99 under 100 ms during the flood.
 *
 *   npm run build && npm run bench:join-flood                       the embedded default
 *   npm run build && BENCH_DATABASE_URL=postgres://... npm run bench:join-flood   and on Postgres
 *
 * BENCH_SECONDS (default 10) per phase, BENCH_SOCKETS (default 20).
 */
import { randomUUID } from 'node:crypto'
import WebSocket from 'ws'
import { startDemoServer, startPostgresServer } from './support'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 20)

const pct = (xs: number[], p: number) => {
	const s = [...xs].sort((a, b) => a - b)
	return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor(s.length * p))]! * 10) / 10 : NaN
}

/** /healthz, one after the other every 20 ms, for `seconds`: each answer's time (a failure counts as the time it took). */
async function probe(base: string, seconds: number): Promise<number[]> {
	const times: number[] = []
	const end = Date.now() + seconds * 1000
	while (Date.now() < end) {
		const started = performance.now()
		await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(20_000) }).then(
			(r) => r.arrayBuffer(),
			() => null,
		)
		times.push(performance.now() - started)
		await new Promise((resolve) => setTimeout(resolve, 20))
	}
	return times
}

/** One socket joining and leaving 100 topics in a loop until `stop`; counts the answers by kind. */
async function flooder(base: string, token: string, counts: Map<string, number>, stopped: () => boolean) {
	const ws = new WebSocket(`${base.replace('http', 'ws')}/realtime/v1/websocket?vsn=2.0.0`)
	await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
	const topics = Array.from({ length: 100 }, () => `realtime:session_updates_${randomUUID()}`)
	let ref = 0
	const pending = new Map<string, { resolve: () => void; join: boolean }>()
	ws.on('message', (data) => {
		const [, r, , event, payload] = JSON.parse(String(data)) as [string, string, string, string, { status?: string; response?: { reason?: string } }]
		if (event !== 'phx_reply') return
		const waiting = pending.get(r)
		pending.delete(r)
		if (waiting?.join) {
			const reason = payload.status === 'ok' ? 'joined' : (payload.response?.reason ?? 'error').replace(/:.*/, '')
			counts.set(reason, (counts.get(reason) ?? 0) + 1)
		}
		waiting?.resolve()
	})
	const send = (topic: string, event: string, payload: object) =>
		new Promise<void>((resolve) => {
			const r = String(++ref)
			pending.set(r, { resolve, join: event === 'phx_join' })
			ws.send(JSON.stringify([r, r, topic, event, payload]))
			setTimeout(resolve, 5000)
		})
	for (let i = 0; !stopped(); i = (i + 1) % topics.length) {
		await send(topics[i]!, 'phx_join', { config: { private: true }, access_token: token })
		await send(topics[i]!, 'phx_leave', {})
	}
	ws.close()
}

async function measure(name: string, base: string) {
	const { token } = (await (await fetch(`${base}/api/realtime/token`)).json()) as { token: string }
	const alone = await probe(base, SECONDS)
	const counts = new Map<string, number>()
	let stop = false
	const flood = Array.from({ length: SOCKETS }, () => flooder(base, token, counts, () => stop).catch(() => {}))
	const during = await probe(base, SECONDS)
	stop = true
	await Promise.all(flood)
	const joins = [...counts]
	console.log(`\n${name}: ${SOCKETS} sockets joining and leaving 100 topics each, ${SECONDS} s`)
	console.log(`  /healthz alone          p50 ${pct(alone, 0.5)} ms  p99 ${pct(alone, 0.99)} ms  (${alone.length} probes)`)
	console.log(`  /healthz under flood    p50 ${pct(during, 0.5)} ms  p99 ${pct(during, 0.99)} ms  (${during.length} probes)  ratio p99 ${(pct(during, 0.99) / pct(alone, 0.99)).toFixed(1)}`)
	console.log(`  the joins' answers:     ${joins.map(([k, n]) => `${k} ${n} (${(n / SECONDS).toFixed(0)}/s)`).join(', ')}`)
}

const demo = await startDemoServer()
try {
	await measure('embedded default (PGlite)', demo.base)
} finally {
	await demo.stop()
}
if (process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL) {
	const pg = await startPostgresServer()
	try {
		await measure('Postgres', pg.base)
	} finally {
		await pg.stop()
	}
}
