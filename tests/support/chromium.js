// The Chromium the end-to-end tests drive: CHROMIUM_PATH when set, else
// Debian's /usr/bin/chromium, else the one `npx playwright install chromium`
// downloaded. Shared by playwright.config.ts and `npm test`'s check, which
// stops before the suite with one line when there is none.
import { existsSync } from 'node:fs'
import { chromium } from '@playwright/test'

/** @returns {{ path: string, source: string } | { path: undefined, problem: string }} */
export function findChromium(env = process.env, debianPath = '/usr/bin/chromium') {
	if (env.CHROMIUM_PATH) {
		return existsSync(env.CHROMIUM_PATH)
			? { path: env.CHROMIUM_PATH, source: 'CHROMIUM_PATH' }
			: { path: undefined, problem: `CHROMIUM_PATH=${env.CHROMIUM_PATH} does not exist` }
	}
	if (existsSync(debianPath)) return { path: debianPath, source: 'Debian' }
	let bundled
	try {
		bundled = chromium.executablePath()
	} catch {
		bundled = undefined
	}
	if (bundled && existsSync(bundled)) return { path: bundled, source: 'Playwright' }
	return { path: undefined, problem: 'no Chromium found' }
}

export const HOW_TO_GET_CHROMIUM =
	'install one with `npx playwright install chromium` (or `apt-get install chromium`), or set CHROMIUM_PATH'
