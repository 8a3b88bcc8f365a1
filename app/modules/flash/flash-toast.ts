import type { KeyEvent } from '#app/modules/analytics/events'

/**
 * A flash toast as the root loader hands it to the page
 * (app/root-data.server.ts) and Toasts (app/components/toasts.tsx) shows it.
 * Here, not in the component, so the server's flash code (flash.server.ts)
 * needs no UI file.
 */
export type FlashToast = {
	type: 'success' | 'error' | 'info' | 'warning'
	message: string
	description: string | null
	/** `delete-account`: the toast offers the delete-account confirmation of the account dialog (declined terms). */
	action: 'delete-account' | null
	/** The product's key event the toast reports (a dare created, a boost, a vote). */
	event?: KeyEvent | null
}
