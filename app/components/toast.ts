import type * as SonnerModule from 'sonner'
import type { ExternalToast } from 'sonner'

/**
 * Toasts, with sonner fetched the first time one is shown rather than with
 * every page (issue 11's JavaScript budget: most visits show none). The
 * toaster (AppToaster) mounts once sonner is asked for; a toast waits until
 * it is listening, so none is lost.
 */
type Sonner = typeof SonnerModule

let sonner: Promise<Sonner> | null = null
const requested = new Set<() => void>()
let toasterListening: () => void = () => {}
const listening = new Promise<void>((resolve) => (toasterListening = resolve))

/** Sonner's module; the first call fetches it and tells the toaster to mount. */
export function loadSonner(): Promise<Sonner> {
	if (!sonner) {
		sonner = import('sonner')
		for (const notify of requested) notify()
	}
	return sonner
}

/** Whether sonner was asked for yet, and a subscription for when it is (AppToaster). */
export const sonnerRequested = () => sonner !== null
export function onSonnerRequested(notify: () => void): () => void {
	requested.add(notify)
	return () => requested.delete(notify)
}

/** Called by AppToaster once sonner's Toaster has subscribed to new toasts. */
export function markToasterListening() {
	toasterListening()
}

type Kind = 'success' | 'error' | 'info' | 'warning'

function show(kind: Kind, message: string, options?: ExternalToast) {
	void Promise.all([loadSonner(), listening]).then(([module]) => module.toast[kind](message, options))
}

export const toast = {
	success: (message: string, options?: ExternalToast) => show('success', message, options),
	error: (message: string, options?: ExternalToast) => show('error', message, options),
	info: (message: string, options?: ExternalToast) => show('info', message, options),
	warning: (message: string, options?: ExternalToast) => show('warning', message, options),
}
