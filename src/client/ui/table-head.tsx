/** The head row of a table: one column header per label. */
export function TableHead({ columns }: { columns: string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((label, i) => (
          <th scope="col" key={i}>
            {label}
          </th>
        ))}
      </tr>
    </thead>
  );
}
