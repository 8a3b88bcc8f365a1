import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { freePort } from '#tests/support/free-port'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

/**
 * The container's runtime stage, assembled the way the Dockerfile does it:
 * production dependencies only (the lockfile's non-dev packages, as
 * `npm ci --omit=dev` installs them), the build, and the files the
 * Dockerfile's runtime stage copies from the source tree (read from the
 * Dockerfile itself, so the two cannot drift apart), in an empty folder. From there the image's own migration command
 * migrates a fresh database, and the server starts with the image's defaults
 * (NODE_ENV=production, HOST=0.0.0.0, PORT, PGLITE_DATA_DIR) and serves.
 * `npm test` runs it after the build (`npm run test:image`).
 */

const ROOT = process.cwd()
const DATABASES = process.env.TEST_DATABASE_URL ? (['pglite', 'postgres'] as const) : (['pglite'] as const)

let image: string

function assembleRuntimeStage(): string {
	if (!existsSync(join(ROOT, 'build/server/index.js'))) throw new Error('No build: run `npm run build` before `npm run test:image`.')
	const dir = mkdtempSync(join(tmpdir(), 'dareboost-image-'))
	const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
		packages: Record<string, { dev?: boolean; devOptional?: boolean; optional?: boolean; link?: boolean }>
	}
	for (const [path, meta] of Object.entries(lock.packages)) {
		// `npm ci --omit=dev` leaves out `dev` packages; it keeps `devOptional`
		// ones (dev tools some production package names as an optional peer,
		// such as vite and tsx). They are left out here too: the server must not
		// need them, and if it works without them it works with them.
		if (!path.startsWith('node_modules/') || meta.dev || meta.devOptional || meta.link) continue
		const from = join(ROOT, path)
		// An optional package for another platform is not installed here either.
		if (!existsSync(from)) {
			if (meta.optional) continue
			throw new Error(`production dependency ${path} is missing from node_modules`)
		}
		const to = join(dir, path)
		mkdirSync(dirname(to), { recursive: true })
		// Hard links (fast, no copy of the bytes); nested node_modules come as their own entries.
		execFileSync('cp', ['-al', from, to])
		rmSync(join(to, 'node_modules'), { recursive: true, force: true })
	}
	for (const entry of ['build', ...runtimeStageSources()]) {
		cpSync(join(ROOT, entry), join(dir, entry), { recursive: true })
	}
	return dir
}

/** What the Dockerfile's last stage copies from the build context (`COPY` without `--from`). */
function runtimeStageSources(): string[] {
	const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8')
	const stage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '))
	const sources: string[] = []
	for (const line of stage.split('\n')) {
		if (!/^COPY\s/.test(line) || /--from=/.test(line)) continue
		const words = line.split(/\s+/).slice(1).filter((word) => !word.startsWith('--'))
		sources.push(...words.slice(0, -1))
	}
	if (!sources.includes('server.js')) throw new Error('the Dockerfile runtime stage no longer copies server.js: update this test')
	return sources
}


/** The image's environment: its ENV lines, and nothing from this shell. */
function imageEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
	return { PATH: process.env.PATH, HOME: image, NODE_ENV: 'production', HOST: '0.0.0.0', ...extra }
}

function run(args: string[], env: NodeJS.ProcessEnv): string {
	return execFileSync(process.execPath, args, { cwd: image, env, encoding: 'utf8', stdio: 'pipe' })
}

async function startServer(env: NodeJS.ProcessEnv, port: number): Promise<{ child: ChildProcess; output: () => string }> {
	const child = spawn(process.execPath, ['server.js'], { cwd: image, env, stdio: ['ignore', 'pipe', 'pipe'] })
	let output = ''
	child.stdout!.on('data', (d) => (output += d))
	child.stderr!.on('data', (d) => (output += d))
	const deadline = Date.now() + 60_000
	while (Date.now() < deadline) {
		if (child.exitCode !== null) throw new Error(`server exited: ${output}`)
		const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok).catch(() => false)
		if (ok) return { child, output: () => output }
		await new Promise((r) => setTimeout(r, 200))
	}
	child.kill('SIGKILL')
	throw new Error(`server did not start: ${output}`)
}

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
	return new Promise((resolve, reject) => {
		const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
			let body = ''
			res.on('data', (d) => (body += d))
			res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
		})
		req.on('error', reject)
		req.end()
	})
}

function rssKiB(pid: number): number {
	const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))
	return Number(line?.replace(/\D+/g, '') ?? 0)
}

/** Streams `total` bytes chunked (no Content-Length) and resolves with the status and how long the answer took. */
function postChunked(port: number, path: string, total: number): Promise<{ status: number; ms: number; sent: number }> {
	return new Promise((resolve, reject) => {
		const started = Date.now()
		const chunk = Buffer.alloc(64 * 1024, 'a')
		let sent = 0
		let answered = false
		const req = request({
			host: '127.0.0.1',
			port,
			path,
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded', 'transfer-encoding': 'chunked', origin: `http://127.0.0.1:${port}` },
		})
		req.on('response', (res) => {
			answered = true
			res.resume()
			resolve({ status: res.statusCode ?? 0, ms: Date.now() - started, sent })
			req.destroy()
		})
		// The server closes the connection after its 413 while this side still writes.
		req.on('error', (error) => (answered ? undefined : reject(error)))
		const pump = () => {
			while (sent < total && !answered) {
				sent += chunk.length
				if (!req.write(chunk)) return void req.once('drain', pump)
			}
			req.end()
		}
		pump()
	})
}

beforeAll(() => {
	const started = Date.now()
	image = assembleRuntimeStage()
	console.info(`runtime stage assembled in ${Date.now() - started} ms`)
})

afterAll(() => {
	if (image) rmSync(image, { recursive: true, force: true })
})

test('the runtime stage has no development dependencies', () => {
	expect(existsSync(join(image, 'node_modules/express'))).toBe(true)
	expect(existsSync(join(image, 'node_modules/tsx'))).toBe(false)
	expect(existsSync(join(image, 'node_modules/vite'))).toBe(false)
	expect(existsSync(join(image, 'node_modules/vitest'))).toBe(false)
})

test("the session share card's renderer and fonts ship in the runtime stage", () => {
	// What app/modules/seo/session-card.server.ts does, with only the image's files: text drawn means the fonts were found.
	const script = `const { Resvg } = require('@resvg/resvg-js')
const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60"><text x="4" y="40" font-family="DejaVu Sans" font-size="32">Canlı ş</text></svg>'
const fonts = ['content/fonts/DejaVuSans.ttf', 'content/fonts/DejaVuSans-Bold.ttf']
const image = new Resvg(svg, { font: { loadSystemFonts: false, fontFiles: fonts, defaultFontFamily: 'DejaVu Sans' } }).render()
process.stdout.write(String(image.pixels.some((v, i) => i % 4 === 3 && v > 0)))`
	expect(run(['-e', script], imageEnv({}))).toBe('true')
})

describe.each(DATABASES)('the runtime stage on %s', (kind) => {
	let server: { child: ChildProcess; output: () => string } | undefined
	let port = 0
	let admin: pg.Client | undefined
	let dbName = ''
	const env: Record<string, string> = {}

	beforeAll(async () => {
		port = await freePort()
		Object.assign(env, { PORT: String(port), PGLITE_DATA_DIR: join(image, `data-${kind}/pglite`) })
		if (kind === 'postgres') {
			dbName = `dareboost_image_${process.pid}_${Date.now()}`
			admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
			await admin.connect()
			await admin.query(`create database ${dbName}`)
			const url = new URL(process.env.TEST_DATABASE_URL!)
			url.pathname = `/${dbName}`
			Object.assign(env, {
				DATABASE_URL: url.toString(),
				MIGRATE_ON_START: 'false',
				BETTER_AUTH_SECRET: 'image-test-secret-that-is-long-enough-0123456789',
			})
		} else {
			env.MIGRATE_ON_START = 'false'
		}
	})

	afterAll(async () => {
		server?.child.kill('SIGTERM')
		if (server && server.child.exitCode === null) await new Promise((r) => server!.child.once('exit', r))
		if (admin) {
			await admin.query(`drop database if exists ${dbName} with (force)`)
			await admin.end()
		}
	})

	test('`node server.js migrate` migrates a fresh database with only what the image ships', () => {
		const out = run(['server.js', 'migrate'], imageEnv(env))
		expect(out).toMatch(/migrate: applied \d+/)
	})

	test("it starts with the container's defaults and serves a page", async () => {
		server = await startServer(imageEnv(env), port)
		const page = await get(port, '/en', { host: `localhost:${port}` })
		expect(page.status).toBe(200)
		expect(page.body).toContain('<html lang="en"')
	})

	test("the mailbox takeover: under the container's defaults the mailbox is off, whatever the Host", async () => {
		for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
			expect((await get(port, '/dev/mailbox', { host })).status).toBe(404)
			expect((await get(port, '/dev/mailbox.data', { host })).status).toBe(404)
		}
		expect((await get(port, '/dev/mailbox', { host: 'evil.example' })).status).toBe(421)
	})

	test('a request for another host gets 421, /healthz answers for any', async () => {
		expect((await get(port, '/en', { host: 'evil.example' })).status).toBe(421)
		expect((await get(port, '/healthz', { host: '10.0.0.7:3000' })).status).toBe(200)
	})

	test('a chunked 50 MB body gets 413 quickly, memory stays flat and /healthz keeps answering', async () => {
		const pid = server!.child.pid!
		const before = rssKiB(pid)
		const posting = postChunked(port, '/en/login', 50 * 1024 * 1024)
		const health = await get(port, '/healthz')
		const answer = await posting
		expect(answer.status).toBe(413)
		expect(answer.ms).toBeLessThan(2_000)
		expect(answer.sent).toBeLessThan(50 * 1024 * 1024)
		expect(health.status).toBe(200)
		expect(rssKiB(pid) - before).toBeLessThan(30 * 1024)
		expect((await get(port, '/healthz')).status).toBe(200)
	})
})
