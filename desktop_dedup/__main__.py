from desktop_dedup.program import main

raise SystemExit(main())
