import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { expect, test } from './support/test'
import { RealtimeClient } from '@supabase/realtime-js'
import pg from 'pg'
import WebSocket from 'ws'
import { freePort } from '../support/free-port'

/**
 * Resolution exactly once with real server processes (docs/product.md §6.9;
 * issue 10): two production servers (`node server.js`, the built app) on one
 * Postgres database, each with its vote sweeper. A vote's deadline passes
 * while one of them is stopped; another passes while both are stopped and is
 * resolved by the first one to start again, without any page being read; a
 * third passes with both running. Each is resolved once and paid (or
 * refunded) once, and the ledger balances.
 *
 * Also with two server processes: a visitor's session page shared by one
 * until a change through the other, and a boost posted to one reaching a
 * realtime-js subscriber of the other's relay (issue 11).
 *
 * Postgres only (PGlite is one process's database): playwright.config.ts
 * runs this spec in the postgres project alone. No browser: the servers'
 * own sweepers do the work, and the test reads the database.
 */

const DEMO = {
	/** miaLive: voting, boosted 300 + 200, one yes vote: completes, pays Mia 500. */
	voting: 'de300000-0000-4000-8000-0000000d0001',
	/** miaLive: open, boosted 200 + 150 + 100, no votes (yes >= no): completes, pays Mia 450. */
	open: 'de300000-0000-4000-8000-0000000d0002',
	/** miaLive: accepted, no boosts: completes with nothing to move. */
	accepted: 'de300000-0000-4000-8000-0000000d0003',
}


class AppServer {
	private child: ChildProcess | null = null
	readonly url: string
	constructor(
		private readonly name: string,
		private readonly port: number,
		private readonly databaseUrl: string,
		private readonly env: Record<string, string> = {},
	) {
		this.url = `http://127.0.0.1:${port}`
	}

	async start() {
		const appUrl = this.url
		this.child = spawn(process.execPath, ['server.js'], {
			env: {
				...process.env,
				...this.env,
				NODE_ENV: 'production',
				PORT: String(this.port),
				HOST: '127.0.0.1',
				APP_URL: appUrl,
				DATABASE_URL: this.databaseUrl,
				BETTER_AUTH_SECRET: 'two-servers-secret-that-is-long-enough-0123456789',
				DEMO_DATA: 'true',
				OPERATOR_NAME: 'Dareboost Test Operator GmbH',
				OPERATOR_ADDRESS: 'Teststraße 1',
				OPERATOR_EMAIL: 'legal@dareboost.test',
			},
			stdio: ['ignore', 'ignore', 'pipe'],
		})
		let stderr = ''
		this.child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
		const deadline = Date.now() + 60_000
		for (;;) {
			const ok = await fetch(`${appUrl}/healthz`).then(
				(r) => r.ok,
				() => false,
			)
			if (ok) return
			if (this.child.exitCode !== null || Date.now() > deadline) throw new Error(`server ${this.name} did not start:\n${stderr}`)
			await new Promise((resolve) => setTimeout(resolve, 200))
		}
	}

	async stop() {
		const child = this.child
		if (!child || child.exitCode !== null) return
		const exited = new Promise((resolve) => child.once('exit', resolve))
		child.kill('SIGTERM')
		await exited
		this.child = null
	}
}

/** A fresh database on TEST_DATABASE_URL's server, with two app servers on it (not started) and a client of its own. */
async function twoServers(env: { a?: Record<string, string>; b?: Record<string, string> } = {}) {
	const adminUrl = process.env.TEST_DATABASE_URL
	expect(adminUrl, 'playwright.config.ts runs this spec only with TEST_DATABASE_URL').toBeTruthy()
	const name = `dareboost_two_${process.pid}_${Date.now()}`
	const admin = new pg.Client({ connectionString: adminUrl })
	await admin.connect()
	await admin.query(`create database ${name}`)
	const url = new URL(adminUrl!)
	url.pathname = `/${name}`
	const a = new AppServer('A', await freePort(), url.toString(), env.a)
	const b = new AppServer('B', await freePort(), url.toString(), env.b)
	const db = new pg.Client({ connectionString: url.toString() })
	return {
		a,
		b,
		db,
		async end() {
			await Promise.all([a.stop(), b.stop()])
			await db.end().catch(() => undefined)
			await admin.query(`drop database if exists ${name} with (force)`)
			await admin.end()
		},
	}
}

/** Runs `sql` as the demo account `email`, as the Data API would run it. */
async function asDemoUser(db: pg.Client, email: string, sql: string, params: unknown[]) {
	await db.query('begin')
	try {
		const { rows } = await db.query<{ id: string }>(`select id from auth.users where email = $1`, [email])
		await db.query(`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, [
			JSON.stringify({ sub: rows[0]!.id, role: 'authenticated', aal: 'aal1' }),
		])
		await db.query(sql, params)
		await db.query('commit')
	} catch (error) {
		await db.query('rollback')
		throw error
	}
}

test('two server processes on one Postgres resolve each vote once, also across a stop of one and of both', async () => {
	test.setTimeout(240_000)
	const { a, b, db, end } = await twoServers()
	try {
		// One after the other: the first migrates and seeds the demo, the second finds it done.
		await a.start()
		await b.start()
		await db.connect()

		const status = async (id: string) =>
			(await db.query<{ status: string; late_ms: number | null }>(
				`select status, (extract(epoch from resolved_at - voting_ends_at) * 1000)::int as late_ms from public.dares where id = $1`,
				[id],
			)).rows[0]!
		const resolved = async (id: string) => {
			await expect.poll(async () => (await status(id)).status, { timeout: 20_000, intervals: [100] }).toMatch(/^(completed|failed)$/)
			const row = await status(id)
			test.info().annotations.push({ type: 'resolved after the deadline', description: `${id}: ${row.late_ms} ms` })
			return row
		}
		/** Mia (the session's creator) calls a dare function. */
		const asMia = (sql: string, id: string) => asDemoUser(db, 'mia@demo.local', sql, [id])
		/** The deadline moved to a few seconds from now (the shortest vote the product allows is 30 s). */
		const dueIn = (id: string, seconds: number) =>
			db.query(`update public.dares set voting_ends_at = now() + make_interval(secs => $2) where id = $1 and status = 'voting'`, [id, seconds])

		// 1. The deadline passes while A is stopped: B resolves it.
		expect((await status(DEMO.voting)).status).toBe('voting')
		await dueIn(DEMO.voting, 3)
		await a.stop()
		const first = await resolved(DEMO.voting)
		expect(first).toMatchObject({ status: 'completed' })
		// A running sweeper resolves within a second of the deadline (resolved_at is its transaction's start, by the database's clock).
		expect(first.late_ms).toBeGreaterThanOrEqual(0)
		expect(first.late_ms).toBeLessThan(1000)

		// 2. The deadline passes while both are stopped: the first to start resolves it, unasked.
		await asMia('select public.accept_dare($1)', DEMO.open)
		await asMia('select public.start_voting($1)', DEMO.open)
		await dueIn(DEMO.open, 2)
		await b.stop()
		await new Promise((resolve) => setTimeout(resolve, 4_000))
		expect((await status(DEMO.open)).status, 'nobody runs a sweeper, nothing read the dare').toBe('voting')
		await a.start()
		expect(await resolved(DEMO.open)).toMatchObject({ status: 'completed' })

		// 3. Both running: the deadline passes once for two sweepers.
		await b.start()
		await asMia('select public.start_voting($1)', DEMO.accepted)
		await dueIn(DEMO.accepted, 2)
		const third = await resolved(DEMO.accepted)
		expect(third).toMatchObject({ status: 'completed' })
		expect(third.late_ms).toBeLessThan(1000)

		// Paid once each, nothing created or lost.
		const moves = await db.query<{ reference: string; kind: string; n: number; total: number }>(
			`select reference, kind, count(*)::int as n, sum(amount)::int as total from ledger.transfers
			 where reference = any($1::text[]) and kind in ('payout', 'fee', 'refund')
			 group by reference, kind order by reference, kind`,
			[Object.values(DEMO)],
		)
		expect(moves.rows).toEqual([
			{ reference: DEMO.voting, kind: 'payout', n: 1, total: 500 },
			{ reference: DEMO.open, kind: 'payout', n: 1, total: 450 },
		])
		const pots = await db.query<{ balance: number }>(
			`select balance::int as balance from ledger.accounts where kind = 'pot' and dare_id = any($1::uuid[])`,
			[Object.values(DEMO)],
		)
		// The two boosted dares have pots (the third may have none); all are empty now.
		expect(pots.rows.length).toBeGreaterThanOrEqual(2)
		expect(pots.rows.filter((p) => p.balance !== 0)).toEqual([])
		expect((await db.query('select * from ledger.check()')).rows).toEqual([])
	} finally {
		await end()
	}
})

test("a visitor's session page is rendered once and shared, each response with its own nonce and form key, until a change committed through any server", async () => {
	test.setTimeout(120_000)
	// B keeps a shared page up to a minute: only the change itself can outdate it within this test.
	const { a, b, db, end } = await twoServers({ b: { SHARED_PAGE_MAX_AGE_MS: '60000' } })
	try {
		await a.start()
		await b.start()
		await db.connect()
		const { rows } = await db.query<{ id: string }>(`select session_id as id from public.dares where id = $1`, [DEMO.open])
		const path = `/en/session/${rows[0]!.id}`
		const visit = async (cookie?: string) => {
			const response = await fetch(`${b.url}${path}`, { headers: cookie ? { cookie } : {} })
			const html = await response.text()
			const csp = response.headers.get('content-security-policy') ?? ''
			return {
				status: response.status,
				age: response.headers.get('age'),
				nonce: /'nonce-([^']+)'/.exec(csp)?.[1],
				nonces: new Set([...html.matchAll(/nonce="([^"]+)"/g)].map((m) => m[1])),
				formKeys: new Set([...html.matchAll(/name="key" value="boost:([0-9a-f-]{36}):/g)].map((m) => m[1])),
				html,
			}
		}
		const first = await visit()
		const second = await visit()
		expect([first.status, second.status]).toEqual([200, 200])
		expect(first.age, 'the first visitor’s page is rendered for them').toBeNull()
		expect(second.age, 'the next visitor gets the same render, from the shared copy').toBe('0')
		for (const page of [first, second]) {
			expect(page.nonce).toBeTruthy()
			expect([...page.nonces]).toEqual([page.nonce])
			expect(page.formKeys.size).toBe(1)
		}
		expect(second.nonce).not.toBe(first.nonce)
		expect([...second.formKeys][0]).not.toBe([...first.formKeys][0])
		const same = (html: string, page: { nonce?: string; formKeys: Set<string | undefined> }) =>
			html.replaceAll(page.nonce!, 'NONCE').replaceAll([...page.formKeys][0]!, 'KEY')
		expect(same(second.html, second)).toBe(same(first.html, first))
		// Signed in (or any cookie the page may depend on): rendered for the viewer.
		expect((await visit('better-auth.session_token=whatever')).age).toBeNull()

		// Mia accepts the demo's open dare, in the database (as server A would commit it).
		const dare = (state: string) => `id="dare-${DEMO.open}" class="dare dare--${state}"`
		expect(second.html).toContain(dare('open'))
		await asDemoUser(db, 'mia@demo.local', 'select public.accept_dare($1)', [DEMO.open])
		await expect
			.poll(async () => (await visit()).html.includes(dare('accepted')), { message: 'the accepted dare on a visitor’s page', timeout: 10_000, intervals: [100] })
			.toBe(true)
		const after = await visit()
		expect(after.age, 'shared again once rendered anew').toBe('0')
		expect(after.html).toContain(dare('accepted'))
	} finally {
		await end()
	}
})

test('a boost posted through one server reaches a realtime-js subscriber of the other: two processes, one Postgres (issue 11)', async () => {
	test.setTimeout(120_000)
	const { a, b, db, end } = await twoServers()
	const client = { current: null as RealtimeClient | null }
	try {
		await a.start()
		await b.start()
		await db.connect()
		const { rows } = await db.query<{ id: string }>(`select session_id as id from public.dares where id = $1`, [DEMO.open])
		const sessionId = rows[0]!.id
		// A visitor on B: its token from B's /api/realtime/token, B's relay, as the page does it.
		const { token } = (await (await fetch(`${b.url}/api/realtime/token`)).json()) as { token: string }
		client.current = new RealtimeClient(`${b.url.replace(/^http/, 'ws')}/realtime/v1`, { transport: WebSocket as never, params: { apikey: 'local' }, accessToken: async () => token })
		await client.current.setAuth()
		const pots: number[] = []
		const channel = client.current.channel(`session_updates_${sessionId}`, { config: { private: true } })
		channel.on('broadcast', { event: 'update' }, (message) => {
			const dares = (message.payload as { sessionData: { dares?: { id: string; pot: number }[] } }).sessionData.dares ?? []
			const dare = dares.find((d) => d.id === DEMO.open)
			if (dare) pots.push(dare.pot)
		})
		expect(await new Promise((resolve) => channel.subscribe((status) => status !== 'CLOSED' && resolve(status)))).toBe('SUBSCRIBED')

		// Emre (a viewer in Mia's session) signs in on A, accepts the terms, and boosts the open dare (450) by 10 there, as his browser posts it.
		await db.query(
			`insert into public.consents (user_id, kind, version)
			 select id, 'terms_of_service', app_private.current_document_version('terms_of_service') from auth.users where email = 'emre@demo.local'
			 on conflict do nothing`,
		)
		const signIn = await fetch(`${a.url}/en/login`, {
			method: 'POST',
			redirect: 'manual',
			headers: { 'content-type': 'application/x-www-form-urlencoded', origin: a.url },
			body: new URLSearchParams({ email: 'emre@demo.local', password: 'dareboost-demo', redirectTo: '/en' }),
		})
		const cookie = signIn.headers
			.getSetCookie()
			.map((c) => c.split(';')[0])
			.join('; ')
		const boost = await fetch(`${a.url}/en/session/${sessionId}`, {
			method: 'POST',
			redirect: 'manual',
			headers: { 'content-type': 'application/x-www-form-urlencoded', origin: a.url, cookie },
			body: new URLSearchParams({ intent: 'boost', sessionId, dareId: DEMO.open, amount: '10', key: `two-servers:${randomUUID()}` }),
		})
		// Back to the dare (a refusal would go elsewhere: to sign in, to the shop, or without the anchor).
		expect(boost.headers.get('location')).toBe(`/en/session/${sessionId}#dare-${DEMO.open}`)
		await expect.poll(() => pots.at(-1), { message: 'the new pot, on the other server’s subscriber', timeout: 10_000, intervals: [50] }).toBe(460)
	} finally {
		client.current?.disconnect()
		await end()
	}
})
