export const shout = (s: string): string => s.toUpperCase() + '!';
