// Starts the production server for one end-to-end database:
//   pglite   — embedded PGlite in a fresh temporary folder; mail goes to the
//              development mailbox (/dev/mailbox), as with `npm start`
//   postgres — a fresh database on the TEST_DATABASE_URL server, dropped on
//              exit; mail goes through SMTP to a real SMTP server on loopback
//              (tests/support/mail-catcher.js), as in a server deployment
// Both get the demo data, exactly as `npm start` would.
//
// `--operator EMAIL` (after the port) makes that account, a demo one, an
// operator, who decides reports in /{lang}/operator (moderation.spec.ts).
// The role is granted on the owner connection only, and PGlite is one
// process's database: the server starts once (migrations, demo data), stops,
// `npm run operator:grant` runs on its database, and it starts for good.
//
// The SMTP catcher's mails are served to the tests as JSON on
// http://127.0.0.1:{PORT + 1000}/mails?to={address} (mailbox.ts reads them).
// Analytics are configured on both, with a PostHog stand-in on
// http://127.0.0.1:{PORT + 2000} as the relay's upstream; what it received
// is at /__received (analytics-upstream.js).
import { spawn } from 'node:child_process'
import { createServer } from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { startChannelPlatform } from './channel-platforms.js'
import { startMailCatcher } from './mail-catcher.js'
import { startAnalyticsUpstream } from './analytics-upstream.js'
import { startIdentityProviders } from './identity-providers.js'

const [kind, port, ...options] = process.argv.slice(2)
const operator = options[0] === '--operator' ? options[1] : undefined
if (options.length > 0 && !operator) {
	console.error(`usage: start-server.js pglite|postgres PORT [--operator EMAIL]`)
	process.exit(2)
}
const env = {
	...process.env,
	NODE_ENV: 'production',
	PORT: port,
	HOST: '127.0.0.1',
	APP_URL: `http://127.0.0.1:${port}`,
	DEMO_DATA: 'true',
	// Warnings and errors only: the access line of every request would bury them in the test output.
	LOG_LEVEL: 'warn',
	// The imprint's operator, as a public deployment must set it (a written \n breaks the address).
	OPERATOR_NAME: 'Dareboost Test Operator GmbH',
	OPERATOR_ADDRESS: 'Teststraße 1\\n10115 Berlin',
	OPERATOR_EMAIL: 'legal@dareboost.test',
	// The shop sells through the test checkout on both databases (no Stripe here).
	TEST_CHECKOUT: 'true',
	// Creators are paid through the test payouts' stand-in on both databases; a completed
	// dare's coins may be paid out at once, and a few hundred are enough (payouts.spec.ts).
	TEST_PAYOUTS: 'true',
	PAYOUT_HOLD_DAYS: '0',
	PAYOUT_MIN_COINS: '100',
}
delete env.DATABASE_URL
let cleanup = async () => {}
let child = null
// Stopped before the server runs (a start given up on): clean up, then exit.
// Once it runs, the server is stopped and its exit cleans up (below).
let stopping = false
const stop = async () => {
	if (stopping) return
	stopping = true
	if (child) return void child.kill('SIGTERM')
	await cleanup().catch((e) => console.error(e))
	process.exit(0)
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, stop)

if (kind === 'pglite') {
	const dir = mkdtempSync(join(tmpdir(), 'dareboost-e2e-'))
	env.PGLITE_DATA_DIR = dir
	cleanup = async () => rmSync(dir, { recursive: true, force: true })
} else if (kind === 'postgres') {
	const adminUrl = process.env.TEST_DATABASE_URL
	const name = `dareboost_e2e_${process.pid}_${Date.now()}`
	const admin = new pg.Client({ connectionString: adminUrl })
	await admin.connect()
	await admin.query(`create database ${name}`)
	await admin.end()
	const url = new URL(adminUrl)
	url.pathname = `/${name}`
	env.DATABASE_URL = url.toString()
	// A server deployment brings its own secret (the embedded default makes one).
	env.BETTER_AUTH_SECRET = 'e2e-only-secret-that-is-long-enough-0123456789'
	// ...and its own SMTP server.
	const catcher = await startMailCatcher()
	env.SMTP_URL = catcher.smtpUrl
	const mailbox = createServer((req, res) => {
		const to = new URL(req.url ?? '/', 'http://localhost').searchParams.get('to') ?? ''
		const mails = catcher.mailsTo(to).map(({ to, subject, links }) => ({ to, subject, links }))
		res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(mails))
	})
	await new Promise((resolve) => mailbox.listen(Number(port) + 1000, '127.0.0.1', () => resolve(undefined)))
	cleanup = async () => {
		const c = new pg.Client({ connectionString: adminUrl })
		await c.connect()
		await c.query(`drop database if exists ${name} with (force)`)
		await c.end()
	}
} else {
	console.error(`usage: start-server.js pglite|postgres PORT [--operator EMAIL]`)
	process.exit(2)
}

// PostHog: a project key, and the relay forwards to the loopback stand-in.
const analytics = await startAnalyticsUpstream(Number(port) + 2000)
env.POSTHOG_KEY = 'phc_e2e_project_key'
env.POSTHOG_HOST = analytics.url

// Google and Twitch sign-in go to OpenID Connect stand-ins on loopback (see identity-providers.js).
Object.assign(env, await startIdentityProviders(env.APP_URL))
// YouTube and Kick channel linking go to OAuth stand-ins on loopback (see channel-platforms.js).
for (const platform of ['youtube', 'kick']) Object.assign(env, (await startChannelPlatform(platform, env.APP_URL)).env)

/** Runs `command` with `vars` until it exits (its exit code), or, given `until`, until that resolves, then stops it. Asked to stop meanwhile: cleans up and exits. */
async function runOnce(command, args, vars, until) {
	const run = spawn(command, args, { env: vars, stdio: 'inherit' })
	child = run
	const exited = new Promise((resolve) => run.once('exit', (code) => resolve(code)))
	if (until) {
		await until(() => run.exitCode !== null || run.signalCode !== null || stopping)
		run.kill('SIGTERM')
	}
	const code = await exited
	child = null
	if (stopping) {
		await cleanup().catch((e) => console.error(e))
		process.exit(0)
	}
	return code
}

if (operator && !stopping) {
	// The first start on a port of its own: the tests wait for PORT, which must answer only once the role is granted.
	const firstPort = await new Promise((resolve) => {
		const probe = createServer().listen(0, '127.0.0.1', () => {
			const { port } = probe.address()
			probe.close(() => resolve(port))
		})
	})
	const first = { ...env, PORT: String(firstPort), APP_URL: `http://127.0.0.1:${firstPort}` }
	let up = false
	await runOnce(process.execPath, ['server.js'], first, async (gone) => {
		const deadline = Date.now() + 110_000
		while (!up && !gone() && Date.now() < deadline) {
			up = await fetch(`${first.APP_URL}/healthz`).then(
				(r) => r.ok,
				() => false,
			)
			if (!up) await new Promise((resolve) => setTimeout(resolve, 200))
		}
	})
	const granted = up && (await runOnce(join('node_modules', '.bin', 'tsx'), ['scripts/operator.ts', 'grant', operator], env)) === 0
	if (!granted) {
		console.error(up ? `start-server.js: ${operator} could not be made an operator` : 'start-server.js: the first start (migrations, demo data) did not answer /healthz')
		await cleanup().catch((e) => console.error(e))
		process.exit(1)
	}
}

// Not when asked to stop while starting (stop() is cleaning up and exits).
if (!stopping) {
	child = spawn(process.execPath, ['server.js'], { env, stdio: 'inherit' })
	child.on('exit', async (code) => {
		await cleanup().catch((e) => console.error(e))
		process.exit(code ?? 0)
	})
}
