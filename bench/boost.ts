/**
 * Boosts per second end to end (issue "Dares"): signed-in viewers post the
 * boost form as a browser does (cookie, Origin, form body, a fresh
 * idempotency key each), through the real action, the real SQL and the
 * ledger, against a Postgres server; on one hot dare, then spread over 1,000
 * dares. In the same run, on the same server, pgbench's TPC-B-like run as the
 * baseline. Then, on the same server and connections, steps that each do
 * less of a boost (Express and a query, a bare React Router route, the form
 * as a visitor, the form signed in but refused before any SQL), so the figures
 * side by side say where a boost's time goes. Afterwards the books are
 * checked (ledger.check()).
 *
 * And, in the same run on the same machine, the framework's own speed: a
 * minimal React Router app (bench/minimal-app: the same React Router,
 * Express and compression, one route whose action reads the form and
 * redirects), built by this script into a temporary folder and posted the
 * same form by the same clients. A boost's figure as a share of it says what
 * the product costs above the framework. Both print their CPU per request:
 * the app's process, the database's backends (for boosts), and this
 * script's clients, which share the machine with them.
 *
 *   npm run build && BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:boost
 *
 * BENCH_SECONDS (default 15) and BENCH_CONNECTIONS (default 32) tune it;
 * each server is warmed up first with BENCH_WARMUP seconds (default 3) of
 * the same boosts, not counted (a fresh process runs its first seconds
 * slower, compiling; without it the first step's figure varied by half);
 * BENCH_STEPS (default `hot,spread,minimal,ladder,pgbench`) picks the steps,
 * e.g. `BENCH_STEPS=hot BENCH_PROFILE=/tmp/prof` profiles the hot dare alone.
 * Targets on the 2-core machine (issue 22): on the hot dare >= 50 % of the
 * minimal action and >= 25 % of pgbench's transactions per second, with
 * ledger.check() clean.
 */
import { execFileSync, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import autocannon from 'autocannon'
import { createDatabase, DEFAULT_POOL_SIZE, type Database } from '../app/db/database.server'
import { DEMO_PASSWORD, DEMO_USERS } from '../app/db/seed.server'
import { cpuSeconds, freePort, machineCpu, postgresCpuSeconds, signInCookie, startPostgresServer, writeDares } from './support'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15)
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32)
const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin'
const STEPS = new Set((process.env.BENCH_STEPS ?? 'hot,spread,minimal,ladder,pgbench').split(',').map((s) => s.trim()))

/** CPU seconds as milliseconds for each of `count` requests. */
function msEach(seconds: number, count: number): string {
	return `${((seconds * 1000) / Math.max(1, count)).toFixed(2)} ms`
}

async function user(db: Database, name: string): Promise<string> {
	const id = randomUUID()
	await db.query(`insert into auth.users (id, aud, role, email) values ($1, 'authenticated', 'authenticated', $2)`, [id, `${name}-${id}@bench.local`])
	await db.query('insert into public.profiles (id, username) values ($1, $2)', [id, `${name}${id.slice(0, 8)}`])
	await ready(db, id)
	return id
}

/** The current terms accepted (the gate of every money action). */
async function ready(db: Database, id: string) {
	await db.query(
		`insert into public.consents (user_id, kind, version) values ($1, 'terms_of_service', app_private.current_document_version('terms_of_service')) on conflict do nothing`,
		[id],
	)
}

/**
 * The boost form as a browser posts it, `cookies` taking turns (none: a
 * visitor), with `amount` (10 is a boost; 5 is refused before any SQL), to
 * the session page (or `path`) for `seconds`.
 */
async function run(
	base: string,
	sessionId: string,
	cookies: string[],
	dareOf: () => string,
	{ amount = '10', path = `/en/session/${sessionId}`, seconds = SECONDS }: { amount?: string; path?: string; seconds?: number } = {},
) {
	let n = 0
	// autocannon's percentiles skip p95: every response's time, for it.
	const times: number[] = []
	const result = await new Promise<autocannon.Result>((resolve, reject) => {
		const instance = autocannon(
			{
				url: base,
				connections: CONNECTIONS,
				duration: seconds,
				requests: [
					{
						method: 'POST',
						path,
						setupRequest: (request) => ({
							...request,
							headers: {
								'content-type': 'application/x-www-form-urlencoded',
								origin: base,
								...(cookies.length > 0 ? { cookie: cookies[n++ % cookies.length]! } : {}),
							},
							body: new URLSearchParams({ intent: 'boost', sessionId, dareId: dareOf(), amount, key: `bench:${randomUUID()}` }).toString(),
						}),
					},
				],
			},
			(error, done) => (error ? reject(error) : resolve(done)),
		)
		instance.on('response', (_client, _status, _bytes, ms) => times.push(ms))
	})
	times.sort((a, b) => a - b)
	return { ...result, p95: Math.round(times[Math.min(times.length - 1, Math.floor(times.length * 0.95))] ?? NaN) }
}

/**
 * What bounds the boosts: the same server, the same connections, doing less
 * of a boost's work each step down. Each answers as a boost does (a redirect,
 * or 200 for the GETs); the per-second figures side by side say what each
 * part costs.
 */
async function ladder(base: string, pid: number, sessionId: string, cookies: string[], dare: string) {
	const get = (path: string) => autocannon({ url: `${base}${path}`, connections: CONNECTIONS, duration: SECONDS })
	const steps: Array<[string, () => Promise<autocannon.Result>]> = [
		['/healthz: Express and one query', () => get('/healthz')],
		['/robots.txt: a bare React Router route', () => get('/robots.txt')],
		['the boost form, as a visitor (sent to sign in)', () => run(base, sessionId, [], () => dare)],
		['the boost form, signed in, amount 5 (refused before SQL)', () => run(base, sessionId, cookies, () => dare, { amount: '5' })],
	]
	console.log('\nwhat bounds it: the same server and connections, each step doing less of a boost')
	for (const [name, step] of steps) {
		const cpu = cpuSeconds(pid)
		const r = await step()
		const answered = r['2xx'] + r['3xx']
		console.log(
			`  ${name.padEnd(58)} ${(answered / SECONDS).toFixed(0).padStart(6)}/s   p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  (other ${r.non2xx - r['3xx']}, errors ${r.errors})   app CPU ${msEach(cpuSeconds(pid) - cpu, answered)} a request`,
		)
	}
}

/**
 * The minimal React Router app (bench/minimal-app), built into a temporary
 * folder under node_modules/.cache (its server bundle imports react and
 * react-router from this repository's node_modules) and served on a free port.
 */
async function startMinimalApp(): Promise<{ base: string; pid: number; stop: () => Promise<void> }> {
	const app = resolve('bench/minimal-app')
	mkdirSync(resolve('node_modules/.cache'), { recursive: true })
	const dir = mkdtempSync(resolve('node_modules/.cache/dareboost-minimal-app-'))
	const env = { ...process.env, NODE_ENV: 'production', MINIMAL_APP_BUILD_DIR: dir }
	try {
		execFileSync(resolve('node_modules/.bin/react-router'), ['build'], { cwd: app, env, stdio: 'pipe' })
	} catch (error) {
		rmSync(dir, { recursive: true, force: true })
		throw new Error(`the minimal React Router app did not build: ${(error as { stderr?: Buffer }).stderr?.toString() ?? error}`)
	}
	const port = await freePort()
	const base = `http://127.0.0.1:${port}`
	const child = spawn(process.execPath, [join(app, 'server.js')], { env: { ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] })
	for (let i = 0; ; i++) {
		const up = await fetch(`${base}/form`).then((r) => r.ok, () => false)
		if (up) break
		if (i > 100 || child.exitCode !== null) {
			child.kill('SIGKILL')
			rmSync(dir, { recursive: true, force: true })
			throw new Error('the minimal React Router app did not start')
		}
		await new Promise((r) => setTimeout(r, 100))
	}
	return {
		base,
		pid: child.pid!,
		stop: async () => {
			if (child.exitCode === null) {
				const exited = new Promise((r) => child.once('exit', r))
				child.kill('SIGTERM')
				await exited
			}
			rmSync(dir, { recursive: true, force: true })
		},
	}
}

async function main() {
	const server = await startPostgresServer()
	const database = new URL(server.databaseUrl).pathname.slice(1)
	const db = await createDatabase({ url: server.databaseUrl, poolSize: 2 })
	try {
		// A session of 1,000 dares (100 per author), and its dares.
		const creator = await user(db, 'creator')
		const { rows } = await db.query<{ id: string }>(
			`insert into public.sessions (creator_id, title, platform, channel, max_dares_per_user, max_free_dares_per_user, min_boost)
			 values ($1, 'Bench night', 'twitch', $2, 100, 100, 50) returning id`,
			[creator, `bench_${creator.slice(0, 8)}`],
		)
		const sessionId = rows[0]!.id
		const dares = await writeDares(db, sessionId, 1000, () => user(db, 'author'), (i) => `Bench dare number ${i}`)
		// The demo viewers boost: the terms accepted, coins enough for the run.
		const viewers = Object.values(DEMO_USERS).filter((u) => u.id !== creator)
		for (const v of viewers) {
			await ready(db, v.id)
			await db.query(`select * from ledger.transfer(ledger.system_account('world'), ledger.wallet_account($1), 100000000, 'purchase', 'bench', $2)`, [v.id, `bench-fund:${randomUUID()}`])
		}
		const cookies = await Promise.all(viewers.map((v) => signInCookie(server.base, v.email, DEMO_PASSWORD)))
		const boosts = async () => (await db.query<{ n: number }>('select count(*)::int as n from public.boosts')).rows[0]!.n

		console.log(`boosts over HTTP: ${CONNECTIONS} connections, ${SECONDS} s each after ${WARMUP} s of warm-up, ${viewers.length} signed-in viewers, 10 coins a boost\n`)
		// On another dare: the code warms up, and the hot dare starts its step without a boost, as before.
		if (WARMUP > 0) await run(server.base, sessionId, cookies, () => dares[1]!, { seconds: WARMUP })
		const figures: Array<{ name: string; perSecond: number; p50: number; p99: number; errors: number }> = []
		for (const [step, name, pick] of [
			['hot', 'one hot dare', () => dares[0]!],
			['spread', '1,000 dares', () => dares[Math.floor(Math.random() * dares.length)]!],
		] as const) {
			if (!STEPS.has(step)) continue
			const before = await boosts()
			// The clients run in this script: its own CPU.
			const cpu = { app: cpuSeconds(server.pid), postgres: postgresCpuSeconds(database), clients: cpuSeconds(process.pid), machine: machineCpu() }
			const result = await run(server.base, sessionId, cookies, pick)
			const made = (await boosts()) - before
			const machine = machineCpu()
			// What a boost cost: CPU of the app's process, of the database's backends and of the clients, per boost made.
			const perBoost = (seconds: number) => msEach(seconds, made)
			const perSecond = made / SECONDS
			figures.push({ name, perSecond, p50: result.latency.p50, p99: result.latency.p99, errors: result.non2xx - result['3xx'] + result.errors })
			console.log(`${name.padEnd(14)} ${perSecond.toFixed(0).padStart(6)} boosts/s   requests ${result.requests.total}, redirects ${result['3xx']}, other ${result.non2xx - result['3xx']}, errors ${result.errors}   latency p50 ${result.latency.p50} ms  p95 ${result.p95} ms  p99 ${result.latency.p99} ms`)
			console.log(
				`${''.padEnd(14)} CPU per boost: app ${perBoost(cpuSeconds(server.pid) - cpu.app)}, Postgres ${perBoost(postgresCpuSeconds(database) - cpu.postgres)}, the clients (this script) ${perBoost(cpuSeconds(process.pid) - cpu.clients)}; the machine ${((100 * (machine.busy - cpu.machine.busy)) / (machine.total - cpu.machine.total)).toFixed(0)} % busy`,
			)
		}
		if (STEPS.has('minimal')) {
			// The same form, headers and clients, at the framework's speed.
			const minimal = await startMinimalApp()
			try {
				if (WARMUP > 0) await run(minimal.base, sessionId, cookies, () => dares[0]!, { path: '/form', seconds: WARMUP })
				const cpu = { app: cpuSeconds(minimal.pid), clients: cpuSeconds(process.pid) }
				const r = await run(minimal.base, sessionId, cookies, () => dares[0]!, { path: '/form' })
				const perSecond = r['3xx'] / SECONDS
				const perRequest = (seconds: number) => msEach(seconds, r['3xx'])
				console.log(`\nminimal React Router action ${perSecond.toFixed(0).padStart(6)}/s   requests ${r.requests.total}, redirects ${r['3xx']}, other ${r.non2xx - r['3xx']}, errors ${r.errors}   latency p50 ${r.latency.p50} ms  p95 ${r.p95} ms  p99 ${r.latency.p99} ms`)
				console.log(`${''.padEnd(27)} CPU per request: app ${perRequest(cpuSeconds(minimal.pid) - cpu.app)}, the clients (this script) ${perRequest(cpuSeconds(process.pid) - cpu.clients)}`)
				for (const f of figures) console.log(`${f.name} ${f.perSecond.toFixed(0)} boosts/s / minimal React Router action ${perSecond.toFixed(0)}/s: ${((f.perSecond / perSecond) * 100).toFixed(0)} %`)
			} finally {
				await minimal.stop()
			}
		}
		if (STEPS.has('ladder')) await ladder(server.base, server.pid, sessionId, cookies, dares[0]!)
		if (STEPS.has('pgbench')) await pgbench(server, viewers, dares[0]!, figures)
		const problems = await db.query('select * from ledger.check()')
		console.log(`\nledger.check(): ${problems.rows.length === 0 ? 'no problem' : JSON.stringify(problems.rows)}`)
	} finally {
		await db.close()
		await server.stop()
	}
}

/**
 * pgbench's TPC-B-like run on the same server, in a database of its own; and
 * the boost's one statement alone (role, claims and public.boost_dare, as the
 * app sends it) by pgbench on the hot dare, the same viewers taking turns,
 * from as many clients as the app's pool holds and as the HTTP clients: what
 * the database allows a hot dare without any HTTP.
 */
async function pgbench(server: { adminUrl: string; databaseUrl: string }, viewers: Array<{ id: string }>, hot: string, figures: Array<{ name: string; perSecond: number }>) {
	const tps = (out: string) => Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? NaN)
	const scripts = mkdtempSync(resolve('node_modules/.cache/dareboost-pgbench-'))
	try {
		const files = viewers.flatMap((v, i) => {
			const file = join(scripts, `boost-${i}.sql`)
			const claims = JSON.stringify({ sub: v.id, role: 'authenticated' })
			writeFileSync(file, `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', '${claims}', true) \\; select 1 from public.boost_dare('${hot}', 10, 'pgbench:' || :client_id || ':' || random());\n`)
			return ['-f', file]
		})
		console.log('')
		// As many clients as the app's pool has connections, and as many as the HTTP clients.
		for (const clients of [...new Set([DEFAULT_POOL_SIZE, CONNECTIONS])]) {
			const out = execFileSync(`${PG_BIN}/pgbench`, ['-n', '-c', String(clients), '-j', '2', '-T', String(SECONDS), ...files, server.databaseUrl], { encoding: 'utf8' })
			console.log(`boost_dare alone on the hot dare (pgbench, ${clients} clients, no HTTP): ${tps(out).toFixed(0)}/s`)
		}
	} finally {
		rmSync(scripts, { recursive: true, force: true })
	}

	const pgbenchDb = `pgbench_${process.pid}`
	const adminUrl = new URL(server.adminUrl)
	execFileSync(`${PG_BIN}/psql`, [server.adminUrl, '-qc', `create database ${pgbenchDb}`])
	adminUrl.pathname = `/${pgbenchDb}`
	try {
		execFileSync(`${PG_BIN}/pgbench`, ['-i', '-q', '-s', '10', adminUrl.toString()], { stdio: 'ignore' })
		const out = execFileSync(`${PG_BIN}/pgbench`, ['-n', '-c', String(CONNECTIONS), '-j', '2', '-T', String(SECONDS), adminUrl.toString()], { encoding: 'utf8' })
		console.log(`pgbench TPC-B-like (scale 10, ${CONNECTIONS} clients): ${tps(out).toFixed(0)} tps`)
		for (const f of figures) console.log(`  ${f.name}: ${((f.perSecond / tps(out)) * 100).toFixed(1)} % of pgbench`)
	} finally {
		execFileSync(`${PG_BIN}/psql`, [server.adminUrl, '-qc', `drop database if exists ${pgbenchDb}`])
	}
}

await main()
