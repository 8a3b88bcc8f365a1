import { Readable } from 'node:stream'
import { text } from 'node:stream/consumers'
import { expect, test } from 'vitest'
import { lowPriorityModulePreloads } from './module-preload-priority.server'

const HEAD = '<!DOCTYPE html><html lang="de"><head><meta charSet="utf-8"/><link rel="modulepreload" href="/assets/entry.client-a.js"/><link rel="modulepreload" href="/assets/root-b.js"/><style>p{}</style></head>'
const BODY = '<body><p>Grüße: <code>&lt;link rel="modulepreload"</code></p><link rel="modulepreload" href="/late.js"/></body></html>'

async function rewrite(chunks: string[]): Promise<string> {
	return text(Readable.from(chunks.map((chunk) => Buffer.from(chunk))).pipe(lowPriorityModulePreloads()))
}

test('the head’s module preloads get fetchpriority="low", in one chunk or cut anywhere (a tag, a multi-byte letter); the body passes as it is', async () => {
	const page = HEAD + BODY
	const expected = HEAD.replaceAll('<link rel="modulepreload"', '<link rel="modulepreload" fetchpriority="low"') + BODY
	expect(await rewrite([page])).toBe(expected)
	const bytes = Buffer.from(page)
	for (let cut = 1; cut < bytes.length; cut++) {
		const chunks = [bytes.subarray(0, cut), bytes.subarray(cut)]
		expect(await text(Readable.from(chunks).pipe(lowPriorityModulePreloads()))).toBe(expected)
	}
	expect(await rewrite(page.split(''))).toBe(expected)
})
