import yauzl from 'yauzl'

/** Every entry of a ZIP held in memory, by name (small ZIPs: the data export's tests). */
export function unzip(buffer: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('not a zip'))
      const entries = new Map<string, Buffer>()
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError ?? new Error('no stream'))
          const chunks: Buffer[] = []
          stream.on('data', (chunk: Buffer) => chunks.push(chunk))
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks))
            zip.readEntry()
          })
          stream.on('error', reject)
        })
      })
      zip.on('end', () => resolve(entries))
      zip.on('error', reject)
      zip.readEntry()
    })
  })
}

/** A JSON entry, parsed. */
export function json<T = unknown>(entries: Map<string, Buffer>, name: string): T {
  const entry = entries.get(name)
  if (!entry) throw new Error(`no ${name} in the ZIP`)
  return JSON.parse(entry.toString('utf8')) as T
}

/** Every text entry of the ZIP as one string (what a search through the whole export would see). */
export function allText(entries: Map<string, Buffer>): string {
  return [...entries.entries()]
    .filter(([name]) => !name.endsWith('.pdf'))
    .map(([name, bytes]) => `${name}\n${bytes.toString('utf8')}`)
    .join('\n')
}
