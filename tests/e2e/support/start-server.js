// Starts the production server for one end-to-end database:
//   pglite   — embedded PGlite in a fresh temporary folder
//   postgres — a fresh database on the TEST_DATABASE_URL server, dropped on exit
// Both get the demo data, exactly as `npm start` would.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { startIdentityProviders } from './identity-providers.js'

const [kind, port] = process.argv.slice(2)
const env = {
	...process.env,
	NODE_ENV: 'production',
	PORT: port,
	HOST: '127.0.0.1',
	APP_URL: `http://127.0.0.1:${port}`,
	DEMO_DATA: 'true',
}
delete env.DATABASE_URL
let cleanup = async () => {}

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
	cleanup = async () => {
		const c = new pg.Client({ connectionString: adminUrl })
		await c.connect()
		await c.query(`drop database if exists ${name} with (force)`)
		await c.end()
	}
} else {
	console.error(`usage: start-server.js pglite|postgres PORT`)
	process.exit(2)
}

// Google and Twitch sign-in go to OpenID Connect stand-ins on loopback (see identity-providers.js).
Object.assign(env, await startIdentityProviders(env.APP_URL))

const child = spawn(process.execPath, ['server.js'], { env, stdio: 'inherit' })
const stop = () => child.kill('SIGTERM')
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
child.on('exit', async (code) => {
	await cleanup().catch((e) => console.error(e))
	process.exit(code ?? 0)
})
