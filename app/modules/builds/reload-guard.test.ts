import { expect, test } from 'vitest'
import { CHUNK_RELOAD_GUARD_MS, CHUNK_RELOAD_KEY, claimChunkReload, isChunkLoadError } from './reload-guard'

function memoryStorage(initial: Record<string, string> = {}) {
	const items = new Map(Object.entries(initial))
	return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value), items }
}

test('the first failed chunk load reloads the page and remembers when', () => {
	const storage = memoryStorage()
	expect(claimChunkReload(storage, 1_000_000)).toBe(true)
	expect(storage.items.get(CHUNK_RELOAD_KEY)).toBe('1000000')
})

test('a second failure within 10 seconds of that reload does not reload again', () => {
	const storage = memoryStorage()
	expect(claimChunkReload(storage, 1_000_000)).toBe(true)
	expect(claimChunkReload(storage, 1_000_000 + 1)).toBe(false)
	expect(claimChunkReload(storage, 1_000_000 + CHUNK_RELOAD_GUARD_MS - 1)).toBe(false)
	// ...and the blocked attempt does not extend the window.
	expect(storage.items.get(CHUNK_RELOAD_KEY)).toBe('1000000')
})

test('after 10 seconds a new failure reloads once more', () => {
	const storage = memoryStorage({ [CHUNK_RELOAD_KEY]: '1000000' })
	expect(claimChunkReload(storage, 1_000_000 + CHUNK_RELOAD_GUARD_MS)).toBe(true)
	expect(claimChunkReload(storage, 1_000_000 + CHUNK_RELOAD_GUARD_MS + 500)).toBe(false)
})

test('a timestamp from the future or garbage in storage does not block reloading for ever', () => {
	expect(claimChunkReload(memoryStorage({ [CHUNK_RELOAD_KEY]: '9999999999999' }), 1_000_000)).toBe(true)
	expect(claimChunkReload(memoryStorage({ [CHUNK_RELOAD_KEY]: 'not a number' }), 1_000_000)).toBe(true)
})

test('without storage to guard with, or with storage that throws, the page does not reload', () => {
	expect(claimChunkReload(null, 1_000_000)).toBe(false)
	const throwing = {
		getItem: () => null,
		setItem: () => {
			throw new Error('QuotaExceededError')
		},
	}
	expect(claimChunkReload(throwing, 1_000_000)).toBe(false)
})

test('failed dynamic imports are recognised in the wording of each browser, other errors are not', () => {
	expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: https://x/assets/a.js'))).toBe(true)
	expect(isChunkLoadError(new TypeError('error loading dynamically imported module: https://x/assets/a.js'))).toBe(true)
	expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true)
	expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/a.css'))).toBe(true)
	expect(isChunkLoadError(new TypeError('Cannot read properties of undefined'))).toBe(false)
	expect(isChunkLoadError(undefined)).toBe(false)
})
