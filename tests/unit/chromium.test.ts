import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { findChromium } from '#tests/support/chromium.js'

/** Runs findChromium in a fresh process (Playwright reads PLAYWRIGHT_BROWSERS_PATH at load). */
function findIn(env: Record<string, string>, debianPath: string): { path?: string; source?: string; problem?: string } {
	const code = `import { findChromium } from './tests/support/chromium.js'; console.log(JSON.stringify(findChromium(process.env, ${JSON.stringify(debianPath)})))`
	const { CHROMIUM_PATH: _ignored, ...rest } = process.env
	return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', code], { env: { ...rest, ...env }, encoding: 'utf8' }))
}

test('CHROMIUM_PATH wins when it exists, and a wrong one is named', () => {
	expect(findChromium({ CHROMIUM_PATH: process.execPath })).toEqual({ path: process.execPath, source: 'CHROMIUM_PATH' })
	expect(findChromium({ CHROMIUM_PATH: '/nowhere/chromium' })).toMatchObject({ path: undefined, problem: expect.stringContaining('/nowhere/chromium') })
})

test("Debian's Chromium comes next", () => {
	expect(findChromium({}, process.execPath)).toEqual({ path: process.execPath, source: 'Debian' })
})

test("without CHROMIUM_PATH, Debian's or Playwright's Chromium, there is none, and npm test's check says how to get one in one line", () => {
	const empty = mkdtempSync(join(tmpdir(), 'no-browsers-'))
	try {
		expect(findIn({ PLAYWRIGHT_BROWSERS_PATH: empty }, '/nowhere/chromium')).toEqual({ problem: 'no Chromium found' })
		let stderr = ''
		try {
			execFileSync(process.execPath, ['scripts/check-chromium.js'], {
				env: { ...process.env, CHROMIUM_PATH: join(empty, 'chromium') },
				encoding: 'utf8',
				stdio: 'pipe',
			})
		} catch (error) {
			stderr = String((error as { stderr?: string }).stderr)
		}
		expect(stderr.trim().split('\n')).toHaveLength(1)
		expect(stderr).toContain('npx playwright install chromium')
		expect(stderr).toContain('apt-get install chromium')
	} finally {
		rmSync(empty, { recursive: true, force: true })
	}
})
