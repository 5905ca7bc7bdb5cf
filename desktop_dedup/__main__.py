from desktop_dedup.launch import main

raise SystemExit(main())
