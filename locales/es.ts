import type { Messages } from './en'

const es = {
	app: {
		name: 'Dareboost',
		description:
			'Reta en directo a tu streamer favorito en Twitch, YouTube o Kick: escribe un reto, dale un impulso con monedas y vota si lo ha cumplido.',
	},
	nav: {
		'skip-to-content': 'Saltar al contenido',
		main: 'Navegación principal',
		home: 'Sesiones en directo',
		shop: 'Tienda',
		'sign-in': 'Iniciar sesión',
		settings: 'Ajustes',
		language: 'Idioma',
		'choose-language': 'Elige un idioma',
	},
	languages: {
		en: 'English',
		de: 'Deutsch',
		es: 'Español',
		tr: 'Türkçe',
	},
	platforms: {
		twitch: 'Twitch',
		youtube: 'YouTube',
		kick: 'Kick',
	},
	footer: {
		legal: 'Información legal',
		terms: 'Condiciones de uso',
		privacy: 'Política de privacidad',
		imprint: 'Aviso legal',
		'creator-agreement': 'Acuerdo para creadores',
		'made-for': 'Hecho para creadores y sus comunidades.',
	},
	home: {
		title: 'Retos en directo',
		heading: 'Reta a tu streamer. Impulsa las mejores ideas. Vota el resultado.',
		lead: 'Elige una sesión en directo, escribe un reto, respáldalo con monedas y decide con el resto de la comunidad si el creador lo ha conseguido. Si un reto no se cumple, todas las monedas vuelven a quienes lo impulsaron.',
		'live-now': 'En directo ahora',
		'no-live': 'Ahora mismo no hay nadie en directo. Vuelve a pasarte pronto.',
		'session-by': 'con {{creator}}',
		'open-session': 'Abrir sesión',
		'search-label': 'Buscar un canal',
		'search-placeholder': 'Nombre del canal',
		'search-submit': 'Buscar',
		'no-results': 'No se ha encontrado ninguna sesión para «{{query}}».',
	},
	pages: {
		shop: {
			title: 'Tienda',
			lead: 'Con las monedas puedes impulsar retos. Estamos preparando los packs de monedas y el proceso de pago.',
			back: 'Volver a donde estabas',
		},
		terms: {
			title: 'Condiciones de uso',
			lead: 'Estas condiciones regulan el uso de Dareboost por parte de espectadores y creadores.',
		},
		privacy: {
			title: 'Política de privacidad',
			lead: 'Esta política explica qué datos personales trata Dareboost, con qué fin y qué derechos tienes.',
		},
		imprint: {
			title: 'Aviso legal',
			lead: 'Información sobre el titular de este servicio.',
			operator: 'Titular',
			contact: 'Contacto',
			'not-configured': 'El titular aún no ha publicado sus datos.',
		},
		'creator-agreement': {
			title: 'Acuerdo para creadores',
			lead: 'El acuerdo que todo creador acepta antes de iniciar una sesión en directo.',
		},
		confirm: {
			title: 'Confirma tu cuenta',
		},
		register: {
			title: 'Crear una cuenta',
		},
		'password-reset': {
			title: 'Restablecer la contraseña',
		},
		login: {
			title: 'Iniciar sesión',
		},
		settings: {
			title: 'Ajustes',
		},
		session: {
			title: 'Sesión en directo',
			'not-live': 'Este canal no está en directo ahora mismo. Esta fue su última sesión.',
			'status-active': 'En directo',
			'status-ended': 'Finalizada',
			'min-boost': 'Impulso mínimo: {{amount}} monedas',
			'voting-duration': 'La votación dura {{seconds}} segundos',
			'watch-on': 'Ver en {{platform}}',
		},
		overlay: {
			title: 'Overlay para el directo',
		},
	},
	error: {
		title: 'Algo ha salido mal',
		description: 'No hemos podido mostrar esta página. Inténtalo de nuevo o vuelve a la página de inicio.',
		'not-found-title': 'Página no encontrada',
		'not-found-description': 'La página que buscas no existe o se ha movido.',
		'not-found': 'Página no encontrada: {{path}}',
		'invalid-route': 'Página no encontrada: {{path}}',
		status: 'Código de error {{status}}',
		'back-home': 'Volver al inicio',
		'forbidden-title': 'No permitido',
		'cross-site': 'Esta solicitud procede de otro sitio web y se ha rechazado.',
	},
	validation: {
		'email-required': 'Introduce tu correo electrónico.',
		'email-invalid': 'Introduce un correo electrónico válido.',
		'email-too-long': 'El correo electrónico puede tener como máximo 100 caracteres.',
		'password-required': 'Introduce tu contraseña.',
		'password-too-short': 'La contraseña debe tener al menos 6 caracteres.',
		'password-too-long': 'La contraseña puede tener como máximo 100 caracteres.',
		'username-required': 'Elige un nombre de usuario.',
		'username-too-long': 'El nombre de usuario puede tener como máximo 30 caracteres.',
		'username-invalid': 'Usa solo letras minúsculas a–z, números, puntos y guiones bajos.',
		'code-required': 'Introduce el código.',
		'code-invalid': 'Introduce el código de 6 dígitos o un código de recuperación.',
	},
	errors: {
		'unknown-error': 'Algo ha salido mal. Inténtalo de nuevo.',
		'error-not-authenticated': 'Primero inicia sesión.',
		'error-invalid-consent-type': 'Este tipo de consentimiento no existe.',
		'error-invalid-consent-version': 'Esta versión del documento no existe.',
		'error-username-taken': 'Este nombre de usuario ya está en uso.',
		'error-invalid-username': 'Usa solo letras minúsculas a–z, números, puntos y guiones bajos (máximo 30).',
		'error-insufficient-funds': 'No tienes suficientes monedas para esto.',
		'error-session-already-active': 'Ya tienes una sesión en directo.',
		'error-channel-already-live': 'Este canal ya tiene una sesión en directo.',
		'error-channel-taken': 'Este canal ya está vinculado a otro creador.',
	},
} satisfies Messages

export default es
