using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using RpcCompare.Bindings.Limits;
using RpcCompare.Bindings.Security;

namespace RpcCompare.Bindings.Hosting;

/// <summary>A binding served by a Kestrel server of its own (see <see cref="EmbeddedBindingServer"/>).</summary>
public abstract class KestrelBindingServer : EmbeddedBindingServer
{
    protected KestrelBindingServer(IServiceProvider hostServices)
        : base(hostServices)
    {
    }

    protected sealed override IReadOnlyList<IHost> Build()
    {
        // The empty builder reads no appsettings or environment: a binding's settings come from its options alone.
        var builder = WebApplication.CreateEmptyBuilder(new WebApplicationOptions { ApplicationName = GetType().Assembly.GetName().Name });
        builder.WebHost.UseKestrelCore().ConfigureKestrel(options =>
        {
            options.AddServerHeader = false;
            KestrelLimits.Apply(options.Limits, Connections.Options, MaxConnections);
            ConfigureKestrel(options);
        });
        ConfigureWebHost(builder.WebHost);
        builder.Services.AddRouting();
        AddHostServices(builder.Services);
        ConfigureServices(builder.Services);
        var application = builder.Build();
        Configure(application);
        return [application];
    }

    /// <summary>Adds this binding's listener to Kestrel.</summary>
    protected virtual void ConfigureKestrel(KestrelServerOptions options)
    {
    }

    /// <summary>For frameworks that add their listener through the web host builder (CoreWCF's UseNetTcp).</summary>
    protected virtual void ConfigureWebHost(IWebHostBuilder webHost)
    {
    }

    /// <summary>Adds the framework's services.</summary>
    protected abstract void ConfigureServices(IServiceCollection services);

    /// <summary>Maps the framework's endpoints or middleware.</summary>
    protected abstract void Configure(WebApplication application);

    /// <summary>
    /// The one address Kestrel bound (a port of 0 resolved), as a client dials it: http://127.0.0.1:port.
    /// A listener on every address (0.0.0.0, in a container) is published as 127.0.0.1, which
    /// reaches it from inside and, through a published port, from the container's host.
    /// </summary>
    protected static string ListeningUrl(IHost host)
    {
        ArgumentNullException.ThrowIfNull(host);
        return DialledAddress(host.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.Single());
    }

    /// <summary>The address a client dials for what Kestrel reports it bound: every address (0.0.0.0, [::]) as 127.0.0.1.</summary>
    public static string DialledAddress(string bound)
    {
        var uri = new Uri(bound);
        var dialled = uri.Host is "0.0.0.0" or "[::]" ? new UriBuilder(uri) { Host = "127.0.0.1" }.Uri : uri;
        return dialled.GetLeftPart(UriPartial.Authority);
    }

    /// <summary>
    /// Parses a listen address option, naming the option when it is not an IP address, and refuses
    /// an address beyond loopback without TLS (<see cref="TransportSecurity.ThrowIfExposed"/>).
    /// </summary>
    protected IPAddress CheckedListenAddress(string value, string option)
    {
        var address = IPAddress.TryParse(value, out var parsed)
            ? parsed
            : throw new InvalidOperationException($"{option} must be an IP address such as 127.0.0.1 or 0.0.0.0; got '{value}'.");
        Security.ThrowIfExposed(Name, address, option);
        return address;
    }
}
