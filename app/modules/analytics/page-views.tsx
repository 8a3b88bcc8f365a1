import { useEffect, useRef } from 'react'
import { useLocation } from 'react-router'
import { trackPageView } from './events'

/** A page view per client navigation to another path (the first page's is sent when analytics start). */
export function PageViews() {
	const { pathname } = useLocation()
	const last = useRef(pathname)
	useEffect(() => {
		if (last.current === pathname) return
		last.current = pathname
		trackPageView()
	}, [pathname])
	return null
}
