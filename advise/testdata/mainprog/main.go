// Command mainprog compresses its input line by line: the runtime names
// its functions main.f, not by the module path.
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
)

func compress(line []byte) int {
	var out bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&out, gzip.BestSpeed) // want pool *gzip.Writer
	zw.Write(line)
	zw.Close()
	return out.Len()
}

func main() {
	sc := bufio.NewScanner(os.Stdin)
	n := 0
	for sc.Scan() {
		n += compress(sc.Bytes())
	}
	fmt.Println(n)
}
