import { spawn, type ChildProcess } from 'node:child_process'
import { expect, test } from '@playwright/test'
import pg from 'pg'
import { freePort } from '../support/free-port'

/**
 * Resolution exactly once with real server processes (PRODUCT.md, Dares;
 * issue 10): two production servers (`node server.js`, the built app) on one
 * Postgres database, each with its vote sweeper. A vote's deadline passes
 * while one of them is stopped; another passes while both are stopped and is
 * resolved by the first one to start again, without any page being read; a
 * third passes with both running. Each is resolved once and paid (or
 * refunded) once, and the ledger balances.
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
	constructor(
		private readonly name: string,
		private readonly port: number,
		private readonly databaseUrl: string,
	) {}

	async start() {
		const appUrl = `http://127.0.0.1:${this.port}`
		this.child = spawn(process.execPath, ['server.js'], {
			env: {
				...process.env,
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

test('two server processes on one Postgres resolve each vote once, also across a stop of one and of both', async () => {
	test.setTimeout(240_000)
	const adminUrl = process.env.TEST_DATABASE_URL
	expect(adminUrl, 'playwright.config.ts runs this spec only with TEST_DATABASE_URL').toBeTruthy()
	const name = `dareboost_two_${process.pid}_${Date.now()}`
	const admin = new pg.Client({ connectionString: adminUrl })
	await admin.connect()
	await admin.query(`create database ${name}`)
	const url = new URL(adminUrl!)
	url.pathname = `/${name}`
	const a = new AppServer('A', await freePort(), url.toString())
	const b = new AppServer('B', await freePort(), url.toString())
	const db = new pg.Client({ connectionString: url.toString() })
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
		/** Mia (the session's creator) calls a dare function, as the Data API would run it. */
		const asMia = async (sql: string, id: string) => {
			await db.query('begin')
			try {
				const { rows } = await db.query<{ id: string }>(`select id from auth.users where email = 'mia@demo.local'`)
				await db.query(`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, [
					JSON.stringify({ sub: rows[0]!.id, role: 'authenticated', aal: 'aal1' }),
				])
				await db.query(sql, [id])
				await db.query('commit')
			} catch (error) {
				await db.query('rollback')
				throw error
			}
		}
		/** The deadline moved to a few seconds from now (the shortest vote the product allows is 30 s). */
		const dueIn = (id: string, seconds: number) =>
			db.query(`update public.dares set voting_ends_at = now() + make_interval(secs => $2) where id = $1 and status = 'voting'`, [id, seconds])

		// 1. The deadline passes while A is stopped: B resolves it.
		expect((await status(DEMO.voting)).status).toBe('voting')
		await dueIn(DEMO.voting, 3)
		await a.stop()
		expect(await resolved(DEMO.voting)).toMatchObject({ status: 'completed' })

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
		expect(await resolved(DEMO.accepted)).toMatchObject({ status: 'completed' })

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
		await Promise.all([a.stop(), b.stop()])
		await db.end().catch(() => undefined)
		await admin.query(`drop database if exists ${name} with (force)`)
		await admin.end()
	}
})
