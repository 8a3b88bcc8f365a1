/**
 * After a deploy, a tab opened on the previous build can ask for a code chunk
 * that no longer exists. Reloading fetches the new build's HTML and chunks;
 * but if the chunk is missing for another reason (a broken deploy, a cache in
 * between) a reload would loop. So the page reloads once, and not again
 * within 10 seconds of the last such reload (docs/product.md §15.4), remembered in
 * sessionStorage for this tab.
 */
export const CHUNK_RELOAD_KEY = 'dareboost:chunk-reload-at'
export const CHUNK_RELOAD_GUARD_MS = 10_000

type GuardStorage = Pick<Storage, 'getItem' | 'setItem'>

/** True when the page should reload now (and records the time); false inside the guard window or without storage to guard with. */
export function claimChunkReload(storage: GuardStorage | null, now: number): boolean {
	if (!storage) return false
	try {
		const last = Number(storage.getItem(CHUNK_RELOAD_KEY))
		// A timestamp from the future (a changed clock) does not block for ever.
		if (Number.isFinite(last) && last > 0 && now >= last && now - last < CHUNK_RELOAD_GUARD_MS) return false
		storage.setItem(CHUNK_RELOAD_KEY, String(now))
		return true
	} catch {
		// Storage that throws (blocked, full) cannot guard against a loop: do not reload.
		return false
	}
}

/** The messages browsers give a failed `import()` of a code chunk, and Vite's failed preload. */
export function isChunkLoadError(reason: unknown): boolean {
	const message = reason instanceof Error ? `${reason.name}: ${reason.message}` : typeof reason === 'string' ? reason : ''
	return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|ChunkLoadError/i.test(
		message,
	)
}

function sessionStorageOrNull(): GuardStorage | null {
	try {
		return window.sessionStorage
	} catch {
		return null
	}
}

/**
 * Listens for failed chunk loads for the life of the page: Vite's
 * `vite:preloadError` (a chunk or its CSS failed to preload) and an unhandled
 * rejection from a failed dynamic import. Installed before hydration.
 */
export function installChunkErrorReload(win: Window = window): void {
	const reloadOnce = () => {
		if (claimChunkReload(sessionStorageOrNull(), Date.now())) win.location.reload()
	}
	win.addEventListener('vite:preloadError', (event) => {
		// Handled here: without preventDefault Vite rethrows the error.
		event.preventDefault()
		reloadOnce()
	})
	win.addEventListener('unhandledrejection', (event) => {
		if (isChunkLoadError(event.reason)) reloadOnce()
	})
}
