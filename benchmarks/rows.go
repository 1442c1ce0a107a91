package benchmarks

import (
	"database/sql"
	"fmt"
	"io"
	"strconv"
	"strings"

	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver
)

// rows queries 40 rows of 4 columns from an embedded SQLite database
// (modernc.org/sqlite, pure Go, in memory, through database/sql) and
// either binds each row to a new struct (alloc: the idiomatic code) or
// scans it into a reused [][]string container (the pooled strategies).
// database/sql allocates every string it scans whatever the destination,
// and the container holds the id as a string too, so pooling saves only
// the slices: the verdict says whether that pays.
var _ = register(&Workload{
	Name:      "rows",
	Doc:       "scan rows from embedded SQLite into reused [][]string containers vs a new struct per row",
	GetsPerOp: 1,
	Metric:    "allocs/op",
	Also:      []string{"ns/op"},
	Baseline:  "alloc",
	Project:   []string{"pool"},
	Strategies: append([]Strategy{{
		Name: "alloc", Doc: "bind each row to a new struct in a new slice (no container to reuse)",
		New: rowsStructs,
	}}, kit[*RowSet]{
		new:     func() *RowSet { return new(RowSet) },
		reset:   (*RowSet).Reset,
		maxIdle: 16,
	}.strategies(rowsContainer)[1:]...), // [1:]: alloc is struct binding, above
})

const (
	rowsTable = 200 // rows in the table
	rowsLimit = 40  // rows per query
	rowsQuery = `SELECT id, name, email, created FROM users WHERE id > ? ORDER BY id LIMIT 40`
)

// Item is one row bound to a struct.
type Item struct {
	ID      int64
	Name    string
	Email   string
	Created string
}

// A RowSet is a reusable container of rows as strings.
type RowSet struct {
	Rows [][]string
	dest []any // Scan destinations, pointers into the current row
}

// Reset empties s, keeping the capacity of every row. The strings are
// cleared so that a pooled RowSet does not keep them alive.
func (s *RowSet) Reset() {
	for _, r := range s.Rows {
		clear(r[:cap(r)])
	}
	s.Rows = s.Rows[:0]
}

// next returns the next row of s, reusing a previous row's slice.
func (s *RowSet) next(cols int) []string {
	if len(s.Rows) < cap(s.Rows) {
		s.Rows = s.Rows[:len(s.Rows)+1]
		if r := s.Rows[len(s.Rows)-1]; cap(r) >= cols {
			s.Rows[len(s.Rows)-1] = r[:cols]
			return r[:cols]
		}
	} else {
		s.Rows = append(s.Rows, nil)
	}
	r := make([]string, cols)
	s.Rows[len(s.Rows)-1] = r
	return r
}

// openRowsDB creates and fills the in-memory database of one instance.
func openRowsDB() (*sql.DB, *sql.Stmt) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		panic("rows: " + err.Error())
	}
	// Every connection to ":memory:" is a database of its own: keep one.
	db.SetMaxOpenConns(1)
	must := func(_ sql.Result, err error) {
		if err != nil {
			panic("rows: " + err.Error())
		}
	}
	must(db.Exec(`CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL, created TEXT NOT NULL)`))
	tx, err := db.Begin()
	if err != nil {
		panic("rows: " + err.Error())
	}
	for i := 1; i <= rowsTable; i++ {
		must(tx.Exec(`INSERT INTO users VALUES (?, ?, ?, ?)`, i, fmt.Sprintf("user %03d", i),
			fmt.Sprintf("user%03d@example.org", i), loglineEpoch.AddDate(0, 0, i).Format("2006-01-02")))
	}
	if err := tx.Commit(); err != nil {
		panic("rows: " + err.Error())
	}
	stmt, err := db.Prepare(rowsQuery)
	if err != nil {
		panic("rows: " + err.Error())
	}
	return db, stmt
}

// rowsOffset is the id after which operation i starts reading.
func rowsOffset(i int) int { return i % (rowsTable - rowsLimit) }

func rowsStructs(out io.Writer) Instance {
	db, stmt := openRowsDB()
	return Instance{
		Op: func(i int) {
			rs, err := stmt.Query(rowsOffset(i))
			if err != nil {
				panic("rows: " + err.Error())
			}
			var items []Item
			for rs.Next() {
				var it Item
				if err := rs.Scan(&it.ID, &it.Name, &it.Email, &it.Created); err != nil {
					panic("rows: " + err.Error())
				}
				items = append(items, it)
			}
			if err := rs.Err(); err != nil {
				panic("rows: " + err.Error())
			}
			if out != nil {
				for _, it := range items {
					fmt.Fprintf(out, "%s\t%s\t%s\t%s\n", strconv.FormatInt(it.ID, 10), it.Name, it.Email, it.Created)
				}
			}
		},
		NoReuse: true,
		Close:   func() { stmt.Close(); db.Close() },
	}
}

func rowsContainer(src source[*RowSet], out io.Writer) (func(int), func()) {
	db, stmt := openRowsDB()
	return func(i int) {
		rs, err := stmt.Query(rowsOffset(i))
		if err != nil {
			panic("rows: " + err.Error())
		}
		set := src.Get()
		for rs.Next() {
			row := set.next(4)
			set.dest = set.dest[:0]
			for j := range row {
				set.dest = append(set.dest, &row[j])
			}
			if err := rs.Scan(set.dest...); err != nil {
				panic("rows: " + err.Error())
			}
		}
		if err := rs.Err(); err != nil {
			panic("rows: " + err.Error())
		}
		if out != nil {
			for _, r := range set.Rows {
				io.WriteString(out, strings.Join(r, "\t")+"\n")
			}
		}
		src.Put(set)
	}, func() { stmt.Close(); db.Close() }
}
