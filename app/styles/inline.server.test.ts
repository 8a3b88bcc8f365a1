import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { stylesheetReader } from './inline.server'

const build = mkdtempSync(join(tmpdir(), 'stylesheets-'))
mkdirSync(join(build, 'assets'))
writeFileSync(join(build, 'assets', 'app-Ct6ARKrA.css'), ':root{color-scheme:dark}')
writeFileSync(join(build, 'robots.txt'), 'User-agent: *')
afterAll(() => rmSync(build, { recursive: true, force: true }))

test('a built stylesheet’s text, read once', () => {
	const read = stylesheetReader(build)
	expect(read('/assets/app-Ct6ARKrA.css')).toBe(':root{color-scheme:dark}')
	writeFileSync(join(build, 'assets', 'app-Ct6ARKrA.css'), 'changed')
	expect(read('/assets/app-Ct6ARKrA.css')).toBe(':root{color-scheme:dark}')
})

test('nothing for what is not a built stylesheet or cannot be read: the page links it', () => {
	const read = stylesheetReader(build)
	expect(read('/app/styles/app.css')).toBeUndefined()
	expect(read('/robots.txt')).toBeUndefined()
	expect(read('/assets/../robots.txt')).toBeUndefined()
	expect(read('/assets/missing-123.css')).toBeUndefined()
})
