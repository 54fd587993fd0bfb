namespace RpcCompare.Load.Soak;

/// <summary>The host process at one moment of a soak.</summary>
/// <param name="Seconds">Seconds since the soak's measured part began.</param>
/// <param name="RssBytes">Resident set size (VmRSS).</param>
/// <param name="GcHeapBytes">The GC heap's size by the runtime's last counter report; null until one arrived.</param>
/// <param name="Gen2Collections">Gen-2 collections since the soak began, by the runtime's counters.</param>
/// <param name="Threads">Threads of the process.</param>
/// <param name="Handles">Open file descriptors.</param>
/// <param name="Sockets">Of those, sockets.</param>
internal sealed record HostSample(double Seconds, long RssBytes, long? GcHeapBytes, long Gen2Collections, int Threads, int Handles, int Sockets);
