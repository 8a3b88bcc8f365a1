import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, describe, expect, test } from 'vitest'
import WebSocket from 'ws'
import { DEMO_USERS } from '#app/db/seed.server'
import { AppServer, scratchDatabase, signIn } from '#tests/support/app-server'

/**
 * Issue 24: an instance starts, restarts and stops without hurting the
 * others (docs/decisions/048-graceful-drain.md). Production servers on one
 * Postgres database; Postgres only (PGlite is one process's database).
 */
const describeWithPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip

const cleanups: Array<() => Promise<unknown>> = []
afterAll(async () => {
	for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {})
})

async function database(prefix: string) {
	const db = await scratchDatabase(prefix)
	cleanups.push(db.drop)
	return db.url
}

async function server(url: string, env: Record<string, string> = {}) {
	const s = await AppServer.create(url, env)
	cleanups.push(() => s.stop('SIGKILL'))
	return s
}

describeWithPostgres('an instance among others', () => {
	test('SIGTERM: /readyz says 503 at once, the relay closes its sockets with 1001, the process exits 0 soon after', async () => {
		const a = await server(await database('dareboost_drain'), { SHUTDOWN_DELAY_MS: '1000' })
		await a.start()
		expect((await fetch(`${a.url}/readyz`)).status).toBe(200)
		const ws = new WebSocket(`${a.url.replace('http', 'ws')}/realtime/v1/websocket?vsn=1.0.0`)
		await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
		const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)))

		const signalled = performance.now()
		const exit = a.stop('SIGTERM')
		// Within the delay the listener still answers: not ready, and the connection closes after the answer.
		await new Promise((resolve) => setTimeout(resolve, 200))
		const readyz = await fetch(`${a.url}/readyz`)
		expect(readyz.status).toBe(503)
		expect(readyz.headers.get('connection')).toBe('close')
		expect(await readyz.json()).toEqual({ ok: false, reason: 'draining' })
		expect(await closed).toBe(1001)
		expect(await exit).toBe(0)
		// The delay, then nothing in flight: well within 3 s after it.
		expect(performance.now() - signalled).toBeLessThan(1000 + 3000)
		expect(a.output).toMatch(/SIGTERM: draining/)
	}, 90_000)

	test('production logs: one JSON line each, with time and level; the request id echoed and on its access line; a user only as a hash; /metrics', async () => {
		const token = 'metrics-token-that-is-long-enough-0123456789'
		const a = await server(await database('dareboost_logs'), { METRICS_TOKEN: token })
		await a.start()
		const cookie = await signIn(a.url, DEMO_USERS.jonas.email)
		const page = await fetch(`${a.url}/en/shop`, { headers: { cookie, 'x-request-id': 'probe-1234abcd' } })
		expect(page.headers.get('x-request-id')).toBe('probe-1234abcd')
		const made = (await fetch(`${a.url}/en`, { headers: { 'x-request-id': 'not a valid id' } })).headers.get('x-request-id')
		expect(made).toMatch(/^[0-9a-f-]{36}$/)
		// The route of a path asked before is the kept answer (server/app.ts): named the same, next to other paths.
		await fetch(`${a.url}/en/shop`, { headers: { cookie, 'x-request-id': 'probe-again-1234' } })
		await new Promise((resolve) => setTimeout(resolve, 200))
		const lines = a.output.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>)
		for (const line of lines) expect(line).toMatchObject({ level: expect.any(String), time: expect.any(String), msg: expect.any(String) })
		const access = lines.find((l) => l.requestId === 'probe-1234abcd' && l.msg === 'request')
		expect(access).toMatchObject({ method: 'GET', route: 'routes/shop', status: 200, user: expect.stringMatching(/^[0-9a-f]{16}$/) })
		expect(a.output).not.toContain(DEMO_USERS.jonas.id)
		expect(lines.find((l) => l.requestId === made && l.msg === 'request')).toMatchObject({ route: 'routes/home' })
		expect(lines.find((l) => l.requestId === 'probe-again-1234' && l.msg === 'request')).toMatchObject({ route: 'routes/shop' })

		// Prometheus: from this machine; through a proxy only with the token.
		const scraped = await (await fetch(`${a.url}/metrics`)).text()
		expect(scraped).toMatch(/http_request_duration_seconds_count\{method="GET",route="routes\/shop",status="200"\} 2/)
		expect(scraped).toMatch(/dareboost_db_pool_connections\{state="idle"\} \d+/)
		expect(scraped).toMatch(/dareboost_relay_sockets \d+/)
		expect(scraped).toMatch(/dareboost_broadcaster_lag_seconds [\d.]+/)
		expect(scraped).toMatch(/process_cpu_user_seconds_total/)
		const relayed = { 'x-forwarded-for': '203.0.113.9' }
		expect((await fetch(`${a.url}/metrics`, { headers: relayed })).status).toBe(404)
		expect((await fetch(`${a.url}/metrics`, { headers: { ...relayed, authorization: 'Bearer wrong' } })).status).toBe(404)
		expect((await fetch(`${a.url}/metrics`, { headers: { ...relayed, authorization: `Bearer ${token}` } })).status).toBe(200)
	}, 90_000)

	test('two instances starting together on a fresh database both serve, three times in three', async () => {
		for (let round = 0; round < 3; round++) {
			const url = await database(`dareboost_together${round}`)
			const [a, b] = [await server(url), await server(url)]
			await Promise.all([a.start(), b.start()])
			for (const s of [a, b]) expect((await fetch(`${s.url}/readyz`)).status, `${s.url}\n${s.output}`).toBe(200)
			await Promise.all([a.stop(), b.stop()])
		}
	}, 180_000)

	test('boosting through A while B restarts three times: no request fails, every boost is booked once', async () => {
		const url = await database('dareboost_rolling')
		const [a, b] = [await server(url), await server(url)]
		await a.start()
		await b.start()
		const db = new pg.Client({ connectionString: url })
		await db.connect()
		cleanups.push(() => db.end())
		// An open dare of Mia's live session, boosted by Jonas.
		const { rows } = await db.query<{ id: string; session_id: string }>(
			`select d.id, d.session_id from public.dares d join public.sessions s on s.id = d.session_id
			 where s.creator_id = $1 and s.status = 'active' and d.status = 'open' limit 1`,
			[DEMO_USERS.mia.id],
		)
		const dare = rows[0]!
		// Jonas has accepted the terms (the gate of every money action) and has coins enough for the run.
		const jonas = DEMO_USERS.jonas.id
		await db.query(
			`insert into public.consents (user_id, kind, version) values ($1, 'terms_of_service', app_private.current_document_version('terms_of_service')) on conflict do nothing`,
			[jonas],
		)
		await db.query(`select * from ledger.transfer(ledger.system_account('world'), ledger.wallet_account($1), 1000000, 'purchase', 'test', $2)`, [jonas, `fund:${randomUUID()}`])
		const cookie = await signIn(a.url, DEMO_USERS.jonas.email)
		const boostsBefore = await boostCount(db)

		let restarting = true
		const failures: string[] = []
		let sent = 0
		const boosting = (async () => {
			while (restarting) {
				const response = await fetch(`${a.url}/en/session/${dare.session_id}`, {
					method: 'POST',
					redirect: 'manual',
					headers: { 'content-type': 'application/x-www-form-urlencoded', origin: a.url, cookie },
					body: new URLSearchParams({ intent: 'boost', sessionId: dare.session_id, dareId: dare.id, amount: '10', key: `rolling:${randomUUID()}` }),
				}).catch((error: unknown) => ({ status: 0, statusText: String(error) }))
				sent++
				if (response.status !== 303 && response.status !== 302) failures.push(`${response.status} ${response.statusText}`)
			}
		})()
		for (let i = 0; i < 3; i++) {
			expect(await b.stop('SIGTERM')).toBe(0)
			await b.start()
		}
		restarting = false
		await boosting

		expect(failures).toEqual([])
		expect(sent).toBeGreaterThan(10)
		expect((await boostCount(db)) - boostsBefore).toBe(sent)
		expect((await db.query('select * from ledger.check()')).rows).toEqual([])
	}, 180_000)
})

async function boostCount(db: pg.Client): Promise<number> {
	return (await db.query<{ n: number }>('select count(*)::int as n from public.boosts')).rows[0]!.n
}
