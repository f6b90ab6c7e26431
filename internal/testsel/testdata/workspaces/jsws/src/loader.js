// Loads a plugin by name: only files below ./plugins/ can be loaded.
export async function load(name) {
  return import(`./plugins/${name}.js`);
}
