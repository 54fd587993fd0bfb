namespace RpcCompare.Bindings.Wcf.Http;

/// <summary>Settings of wcf-http: CoreWCF BasicHttpBinding (text SOAP 1.1) on 127.0.0.1, with WSDL.</summary>
public sealed class WcfHttpBindingOptions : WcfBindingOptions
{
    public const string SectionName = "WcfHttp";

    /// <summary>TCP port. Defaults to 0: a free port, published in the endpoints file.</summary>
    public int Port { get; set; }

    /// <summary>
    /// IP address to listen on. Defaults to 127.0.0.1: nothing outside this machine reaches the
    /// binding. A container listens on 0.0.0.0 inside its own network namespace and publishes
    /// the port on the host's loopback.
    /// </summary>
    public string ListenAddress { get; set; } = "127.0.0.1";

    /// <summary>
    /// The longest a long poll waits for a notification before returning empty (a client may ask
    /// for less). Defaults to 30 seconds, under the idle timeouts of common proxies.
    /// </summary>
    public TimeSpan LongPollMaxWait { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>
    /// A long-poll session that neither polls nor calls for this long is closed and its
    /// subscriptions end. Defaults to 1 minute: two missed polls at the longest wait.
    /// </summary>
    public TimeSpan LongPollSessionTimeout { get; set; } = TimeSpan.FromMinutes(1);
}
