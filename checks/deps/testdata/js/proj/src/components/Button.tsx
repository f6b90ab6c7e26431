export const y = 2
