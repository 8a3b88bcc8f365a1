import { useEffect, useState } from 'react'

/**
 * The topmost open modal `<dialog>`, or null. A modal dialog sits in the
 * browser's top layer and makes the rest of the page inert, so whatever must
 * stay usable while one is open (the toaster, the undecided cookie banner)
 * is rendered inside it (a popover of its own would be inert too).
 */
export function useTopModalDialog(): HTMLDialogElement | null {
	const [host, setHost] = useState<HTMLDialogElement | null>(null)
	useEffect(() => {
		const update = () => setHost([...document.querySelectorAll('dialog')].findLast((dialog) => dialog.matches(':modal')) ?? null)
		update()
		const observer = new MutationObserver(update)
		observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['open'] })
		return () => observer.disconnect()
	}, [])
	return host
}
