module example.com/mainprog

go 1.26.0
