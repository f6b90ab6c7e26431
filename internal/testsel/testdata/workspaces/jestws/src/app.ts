import { shout } from '@/util/strings';

export function greet(name: string): string {
  return shout(`hello ${name}`);
}
