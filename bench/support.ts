import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'

/** What the benchmark scripts share: a free port, and the production build served on the embedded default with the demo data. */

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']

export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer()
		server.once('error', reject)
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as { port: number }
			server.close(() => resolve(port))
		})
	})
}

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

/** `npm run build` first. The server as the end-to-end tests start it (tests/e2e/support/start-server.js). */
export async function startDemoServer(): Promise<{ base: string; stop: () => void; child: ChildProcess }> {
	const port = await freePort()
	const child = spawn(process.execPath, ['tests/e2e/support/start-server.js', 'pglite', String(port)], { stdio: ['ignore', 'ignore', 'inherit'] })
	const base = `http://127.0.0.1:${port}`
	await waitFor(`${base}/en`)
	return { base, child, stop: () => child.kill('SIGTERM') }
}
