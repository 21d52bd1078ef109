/**
 * The English texts of the built-in pages, in one place. Messages that come with a flow (its errors,
 * labels and outcomes) carry their own text from the self-service catalogue, by the ids UIs built for
 * Kratos translate; these are the words around them.
 */
export const UI_TEXTS = {
  login: { title: 'Sign in', register: 'Create an account', recover: 'Forgot your password?' },
  registration: { title: 'Create an account', login: 'Already have an account? Sign in' },
  recovery: { title: 'Recover your account', login: 'Back to sign in' },
  verification: { title: 'Verify your e-mail address', login: 'Back to sign in' },
  settings: {
    title: 'Account settings',
    sessions: 'Where you are signed in',
    thisDevice: 'this browser',
    signedInAt: 'Signed in',
    expiresAt: 'until',
    signOutElsewhere: 'Sign out everywhere else',
    signedOutElsewhere: 'You were signed out of every other session.',
    signOut: 'Sign out',
  },
  groups: { profile: 'Profile', password: 'Password', link: 'E-mail link', default: '', oidc: 'Other sign-in methods' },
  error: { title: 'Something went wrong', back: 'Start again', unknown: 'The page could not be shown.' },
  oauth2Login: {
    title: 'Continue signing in',
    signedInAs: 'You are signed in as',
    to: 'to continue to',
    remember: 'Keep me signed in on this device',
    accept: 'Continue',
    reject: 'Cancel',
  },
  consent: {
    title: 'Allow access',
    wants: 'wants to access your account',
    asks: 'It asks to:',
    remember: 'Remember my decision',
    accept: 'Allow',
    reject: 'Deny',
    policy: 'Privacy policy',
    terms: 'Terms of service',
  },
  logout: {
    title: 'Sign out',
    question: 'Do you want to sign out?',
    accept: 'Yes, sign me out',
    reject: 'No, stay signed in',
    stayed: 'You are still signed in.',
  },
  skipToContent: 'Skip to content',
} as const;

/** What a scope lets the client do, in words; unknown scopes are shown as they are. */
export const SCOPE_TEXTS: Readonly<Record<string, string>> = {
  openid: 'Know who you are',
  profile: 'See your name and profile',
  email: 'See your e-mail address',
  phone: 'See your phone number',
  address: 'See your postal address',
  offline: 'Stay connected when you are not using it',
  offline_access: 'Stay connected when you are not using it',
};
