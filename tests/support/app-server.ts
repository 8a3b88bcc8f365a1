import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import pg from 'pg'
import { DEMO_PASSWORD } from '#app/db/seed.server'
import { freePort } from './free-port'

/**
 * Production servers of a test's own (`node server.js`, the build), for what
 * only several processes show: two instances on one database, a restart, a
 * shutdown. Each on a free loopback port, with the demo data, on the Postgres
 * database the test gives.
 */
export class AppServer {
	child: ChildProcess | null = null
	/** What the server printed (the last 16 KiB of each stream). */
	output = ''

	private constructor(
		readonly url: string,
		readonly port: number,
		private readonly env: Record<string, string>,
	) {}

	static async create(databaseUrl: string, env: Record<string, string> = {}): Promise<AppServer> {
		if (!existsSync('build/server/index.js')) throw new Error('run `npm run build` first')
		const port = await freePort()
		const url = `http://127.0.0.1:${port}`
		return new AppServer(url, port, {
			NODE_ENV: 'production',
			PORT: String(port),
			HOST: '127.0.0.1',
			APP_URL: url,
			DATABASE_URL: databaseUrl,
			BETTER_AUTH_SECRET: 'app-server-secret-that-is-long-enough-0123456789',
			DEMO_DATA: 'true',
			OPERATOR_NAME: 'Dareboost Test Operator GmbH',
			OPERATOR_ADDRESS: 'Teststraße 1',
			OPERATOR_EMAIL: 'legal@dareboost.test',
			...env,
		})
	}

	/** Starts the process; resolves once /healthz answers 200 (60 s at most). */
	async start(): Promise<void> {
		this.output = ''
		const child = spawn(process.execPath, ['server.js'], { env: { ...process.env, ...this.env }, stdio: ['ignore', 'pipe', 'pipe'] })
		this.child = child
		const keep = (chunk: Buffer) => (this.output = (this.output + chunk.toString()).slice(-32_768))
		child.stdout?.on('data', keep)
		child.stderr?.on('data', keep)
		const deadline = Date.now() + 60_000
		for (;;) {
			const ok = await fetch(`${this.url}/healthz`).then(
				(r) => r.ok,
				() => false,
			)
			if (ok) return
			if (child.exitCode !== null || Date.now() > deadline) throw new Error(`server ${this.url} did not start:\n${this.output}`)
			await new Promise((resolve) => setTimeout(resolve, 50))
		}
	}

	/** Sends `signal` and resolves with the exit code once the process is gone. */
	async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
		const child = this.child
		if (!child || child.exitCode !== null || child.signalCode !== null) return child?.exitCode ?? null
		const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
		child.kill(signal)
		return exited
	}
}

/** A fresh database on TEST_DATABASE_URL's server, and how to drop it. */
export async function scratchDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
	const adminUrl = process.env.TEST_DATABASE_URL!
	const name = `${prefix}_${process.pid}_${Date.now()}`
	const admin = new pg.Client({ connectionString: adminUrl })
	await admin.connect()
	await admin.query(`create database ${name}`)
	const url = new URL(adminUrl)
	url.pathname = `/${name}`
	return {
		url: url.toString(),
		drop: async () => {
			await admin.query(`drop database if exists ${name} with (force)`)
			await admin.end()
		},
	}
}

/** Signs in through the sign-in form, as a browser posts it; the cookie header to send back. */
export async function signIn(base: string, email: string): Promise<string> {
	const response = await fetch(`${base}/en/login`, {
		method: 'POST',
		redirect: 'manual',
		headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
		body: new URLSearchParams({ email, password: DEMO_PASSWORD, redirectTo: '/en' }),
	})
	const cookies = response.headers.getSetCookie().map((c) => c.split(';')[0]!)
	if (!cookies.some((c) => c.includes('session_token='))) throw new Error(`sign-in of ${email} failed: ${response.status}`)
	return cookies.join('; ')
}
