// placeholder, replaced below
export class RulesPage { constructor(main) { main.textContent = ''; } destroy() {} }
