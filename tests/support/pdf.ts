import yauzl from 'yauzl'

/**
 * Reading back what the PDF downloads hand out, with no PDF library: the page count from the page
 * objects Chromium writes as plain dictionaries, and the title from the document's Info dictionary
 * (literal or UTF-16 hex string); ZIPs with yauzl (already installed, through extract-zip).
 */

export const isPdf = (bytes: Uint8Array) => Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-'

export function pdfPages(bytes: Uint8Array): number {
  return (
    Buffer.from(bytes)
      .toString('latin1')
      .match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0
  )
}

/** The /Title of the PDF's Info dictionary, decoded. */
export function pdfTitle(bytes: Uint8Array): string | null {
  const text = Buffer.from(bytes).toString('latin1')
  const hex = /\/Title\s*<([0-9A-Fa-f\s]+)>/.exec(text)
  if (hex) {
    const raw = Buffer.from(hex[1]!.replace(/\s/g, ''), 'hex')
    if (raw[0] === 0xfe && raw[1] === 0xff) {
      const units: number[] = []
      for (let i = 2; i + 1 < raw.length; i += 2) units.push(raw.readUInt16BE(i))
      return String.fromCharCode(...units)
    }
    return raw.toString('latin1')
  }
  const literal = /\/Title\s*\(((?:\\.|[^\\)])*)\)/.exec(text)
  return literal ? literal[1]!.replace(/\\(.)/g, '$1') : null
}

/** Images drawn in the PDF (the charts' canvases, the brand's logo). */
export function pdfImages(bytes: Uint8Array): number {
  return (
    Buffer.from(bytes)
      .toString('latin1')
      .match(/\/Subtype\s*\/Image/g)?.length ?? 0
  )
}

/** The entries of a ZIP: file name and contents. */
export function zipEntries(zip: Buffer): Promise<{ name: string; bytes: Buffer }[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, file) => {
      if (error || !file) return reject(error ?? new Error('not a zip'))
      const entries: { name: string; bytes: Buffer }[] = []
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err ?? new Error('unreadable entry'))
          const chunks: Buffer[] = []
          stream.on('data', (chunk: Buffer) => chunks.push(chunk))
          stream.on('end', () => {
            entries.push({ name: entry.fileName, bytes: Buffer.concat(chunks) })
            file.readEntry()
          })
          stream.on('error', reject)
        })
      })
      file.on('end', () => resolve(entries))
      file.on('error', reject)
      file.readEntry()
    })
  })
}
