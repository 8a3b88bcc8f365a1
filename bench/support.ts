import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { freePort } from '../tests/support/free-port'
import { startTestServer } from '../tests/support/test-server'
import { randomUUID } from 'node:crypto'
import { asUser } from '../app/db/as-user.server'
import type { Database } from '../app/db/database.server'

export { freePort }

/** What the benchmark scripts share: a free port, and the production build served on the embedded default with the demo data. */

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']


async function waitFor(url: string) {
	for (let i = 0; i < 600; i++) {
		try {
			if ((await fetch(url)).ok) return
		} catch {
			// not listening yet
		}
		await sleep(200)
	}
	throw new Error(`${url} did not answer`)
}

/** `npm run build` first. The server as the tests start it (tests/support/test-server.ts), on the embedded default; its errors pass through. */
export async function startDemoServer(): Promise<{ base: string; stop: () => Promise<void> }> {
	const { url, stop } = await startTestServer('pglite', { echoErrors: true })
	return { base: url, stop }
}

/**
 * The production build on a fresh database of a Postgres server
 * (BENCH_DATABASE_URL, else TEST_DATABASE_URL: the server's admin URL), with
 * the demo data, as a server deployment runs it. Returns the app's base URL,
 * the database's URL for the script's own connection, and a stop that drops
 * the database.
 */
export const BENCH_AUTH_SECRET = 'bench-only-secret-that-is-long-enough-0123456789'

export async function startPostgresServer(): Promise<{ base: string; databaseUrl: string; adminUrl: string; pid: number; stop: () => Promise<void> }> {
	const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
	if (!adminUrl) throw new Error('Set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a Postgres server admin URL.')
	const { default: pg } = await import('pg')
	const name = `dareboost_bench_${process.pid}_${Date.now()}`
	const admin = new pg.Client({ connectionString: adminUrl })
	await admin.connect()
	await admin.query(`create database ${name}`)
	await admin.end()
	const url = new URL(adminUrl)
	url.pathname = `/${name}`
	const port = await freePort()
	const base = `http://127.0.0.1:${port}`
	// BENCH_PROFILE=<dir>: the server writes a V8 CPU profile there when it stops (open it in Chrome's DevTools).
	const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []
	const child = spawn(process.execPath, [...profile, 'server.js'], {
		stdio: ['ignore', 'ignore', 'inherit'],
		env: {
			...process.env,
			NODE_ENV: 'production',
			PORT: String(port),
			HOST: '127.0.0.1',
			APP_URL: base,
			DATABASE_URL: url.toString(),
			MIGRATE_ON_START: 'true',
			DEMO_DATA: 'true',
			TEST_CHECKOUT: 'true',
			BETTER_AUTH_SECRET: BENCH_AUTH_SECRET,
		},
	})
	await waitFor(`${base}/healthz`)
	return {
		base,
		databaseUrl: url.toString(),
		adminUrl,
		pid: child.pid!,
		stop: async () => {
			child.kill('SIGTERM')
			await new Promise((resolve) => child.once('exit', resolve))
			const c = new pg.Client({ connectionString: adminUrl })
			await c.connect()
			await c.query(`drop database if exists ${name} with (force)`)
			await c.end()
		},
	}
}

/** Signs a demo account in through the sign-in form, as a browser posts it; returns its cookie header. */
export async function signInCookie(base: string, email: string, password: string): Promise<string> {
	const response = await fetch(`${base}/en/login`, {
		method: 'POST',
		redirect: 'manual',
		headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
		body: new URLSearchParams({ email, password, redirectTo: '/en' }),
	})
	const cookies = response.headers.getSetCookie().map((c) => c.split(';')[0]!)
	if (!cookies.some((c) => c.includes('session'))) throw new Error(`sign-in of ${email} failed: ${response.status}`)
	return cookies.join('; ')
}

export function percentiles(latency: { p50: number; p90?: number; p97_5?: number; p99: number }) {
	return `p50 ${latency.p50} ms  p99 ${latency.p99} ms`
}

/**
 * `count` free dares in a session, 5 per author (the most one viewer may
 * write in a minute, docs/product.md §13.6); `author()` makes each author (a
 * user who has accepted the terms). Their ids, in order.
 */
export async function writeDares(db: Database, sessionId: string, count: number, author: () => Promise<string>, text: (i: number) => string): Promise<string[]> {
	const ids: string[] = []
	while (ids.length < count) {
		const batch = Math.min(5, count - ids.length)
		await asUser(db, { sub: await author(), role: 'authenticated' }, async (tx) => {
			for (let i = 0; i < batch; i++) {
				const r = await tx.query<{ id: string }>('select id from public.create_dare($1, $2, 0, $3)', [text(ids.length), sessionId, randomUUID()])
				ids.push(r.rows[0]!.id)
			}
		})
	}
	return ids
}

// What a process, the Postgres backends of a database, and the machine spent, from /proc (Linux).
const CLOCK_TICKS = 100

/** CPU seconds (user + system) of a process. */
export function cpuSeconds(pid: number): number {
	const { user, system } = cpuSplit(pid)
	return user + system
}

/** CPU seconds of a process in user space and in the kernel (on loopback a socket write also runs the peer's receive path). */
export function cpuSplit(pid: number): { user: number; system: number } {
	const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
	return { user: Number(fields[11]) / CLOCK_TICKS, system: Number(fields[12]) / CLOCK_TICKS }
}

/** CPU seconds of the Postgres backends serving `database` (the bench's own; other databases on the server are not counted). */
export function postgresCpuSeconds(database: string): number {
	let total = 0
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue
		try {
			const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8')
			if (title.startsWith('postgres: ') && title.split(' ')[2] === database) total += cpuSeconds(Number(entry))
		} catch {
			// gone meanwhile
		}
	}
	return total
}

/** The machine's busy and total CPU seconds (/proc/stat). */
export function machineCpu(): { busy: number; total: number } {
	const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/)
	const v = values.map(Number)
	const idle = v[3]! + v[4]!
	const total = v.reduce((a, b) => a + b, 0)
	return { busy: (total - idle) / CLOCK_TICKS, total: total / CLOCK_TICKS }
}

export function rssMb(pid: number): number {
	const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))
	return Number(/(\d+)/.exec(line ?? '')?.[1] ?? NaN) / 1024
}
